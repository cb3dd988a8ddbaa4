"""Tests of :mod:`cbdp_sym.core.errors`: the user-facing errors and what callers may catch them as."""
import pytest

from cbdp_sym.core.errors import CbdpError, DerivationError, DerivationTimeout, ParameterError, UnknownClaimError


@pytest.mark.parametrize("cls", [ParameterError, UnknownClaimError, DerivationError, DerivationTimeout])
def test_every_user_error_is_a_cbdp_error(cls):
    # the CLI turns a CbdpError (and only it) into one line without a traceback
    with pytest.raises(CbdpError, match="scale must be positive"):
        raise cls("scale must be positive")


def test_parameter_error_is_also_a_value_error_and_a_timeout_a_derivation_error():
    assert issubclass(ParameterError, ValueError)  # callers that catch ValueError keep working
    assert issubclass(DerivationTimeout, DerivationError)
    assert not issubclass(DerivationError, ValueError)


def test_unknown_claim_message_is_not_quoted_as_a_key_error_would_be():
    msg = "unknown claim 'CBDP-T99'; did you mean CBDP-T9?"
    assert str(KeyError(msg)) == repr(msg)  # what the base class alone would print
    assert str(UnknownClaimError(msg)) == msg
    assert str(UnknownClaimError()) == "unknown claim"
    with pytest.raises(KeyError):  # a registry lookup may still be caught as a missing key
        raise UnknownClaimError(msg)
