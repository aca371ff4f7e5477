import os
import sys

# Tests import the tpxcase helper that lives next to them.
sys.path.insert(0, os.path.dirname(__file__))
