from django.urls import path

from memories import views

urlpatterns = [
    path("", views.my_memories, name="my-memories"),
]
