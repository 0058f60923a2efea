"""A LangGraph graph on memgov: its checkpoints in MemgovSaver (a thread is a memgov session: resume it,
travel back in time, fork it), its long-term memory in MemgovStore (each put decided by memgov's write
pipeline). Runs offline: the "model" is a plain function.

    MEMGOV_URL=http://127.0.0.1:8000 MEMGOV_KEY=mg_… .venv/bin/python examples/langgraph_graph.py
"""

from __future__ import annotations

import json
import operator
import os
import uuid
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore
from memgov_client.langgraph import MemgovSaver, MemgovStore

URL = os.environ.get("MEMGOV_URL", "http://127.0.0.1:8000")
KEY = os.environ["MEMGOV_KEY"]
USER = os.environ.get("MEMGOV_USER", "alice")


class State(TypedDict):
    messages: Annotated[list[str], operator.add]


def remember(state: State, *, store: BaseStore) -> dict:
    """Keeps what the person asked to remember: memgov's pipeline decides (a secret would be refused)."""
    last = state["messages"][-1]
    if last.lower().startswith("remember"):
        store.put(("memories", USER), "style", {"content": last, "source_type": "explicit_user_request"})
    return {}


def answer(state: State, *, store: BaseStore) -> dict:
    """A fake model: answers with what memgov's ranking returns for the question."""
    found = store.search(("memories", USER), query=state["messages"][-1], limit=1)
    known = found[0].value["content"] if found else "nothing yet"
    return {"messages": [f"(knowing: {known}) answer #{len(state['messages'])}"]}


def main() -> dict:
    saver = MemgovSaver(base_url=URL, api_key=KEY, user_id=USER, app="example")
    store = MemgovStore(base_url=URL, api_key=KEY, user_id=USER)
    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("answer", answer)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "answer")
    builder.add_edge("answer", END)
    graph = builder.compile(checkpointer=saver, store=store)

    thread = {"configurable": {"thread_id": f"example-{uuid.uuid4().hex[:8]}"}}
    graph.invoke({"messages": ["Remember that I like short answers."]}, thread)
    graph.invoke({"messages": ["How should you answer me?"]}, thread)
    history = list(graph.get_state_history(thread))  # newest first: every checkpoint, from memgov
    # Time travel: the state after the first turn, and a fork from it.
    first_turn = next(s for s in history if len(s.values.get("messages", [])) == 2)
    forked = graph.invoke({"messages": ["And in French?"]}, first_turn.config)
    result = {
        "messages": graph.get_state(thread).values["messages"],
        "checkpoints": len(history),
        "forked_messages": forked["messages"],
        "threads_in_memgov": len(list(saver.list(None))) > 0,
    }
    saver.close()
    return result


if __name__ == "__main__":
    print(json.dumps(main()))
