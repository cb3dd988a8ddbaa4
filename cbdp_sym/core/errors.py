"""Errors a user can cause, reported as one line (never a traceback)."""


class CbdpError(Exception):
    """Base class of every user-facing error of cbdp-sym."""


class ParameterError(CbdpError, ValueError):
    """A parameter is outside the domain where the object is defined (scale <= 0, alpha <= 1, ...)."""


class UnknownClaimError(CbdpError, KeyError):
    """A claim ID that is neither encoded nor catalogued."""

    def __str__(self):  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown claim"


class DerivationError(CbdpError):
    """A derivation step could not be carried out (an undecidable sign, no admissible root, ...)."""


class DerivationTimeout(DerivationError):
    """A SymPy operation exceeded its time limit."""
