from memories.crypto.envelope import DecryptionError
from memories.crypto.fields import EncryptedTextField

__all__ = ["DecryptionError", "EncryptedTextField"]
