import os
import sys

# The package under test is the source tree's, not an installed one.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
# Helpers shared by the tests live next to them.
sys.path.insert(0, os.path.dirname(__file__))
