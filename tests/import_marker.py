"""A module with a visible side effect when imported (test_fuzz: reading a saved game must not
import the modules it names)."""

import os

os.environ["LIFEBOAT_IMPORT_MARKER"] = "imported"
