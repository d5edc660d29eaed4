"""JudgeScope: explore LLM-as-judge audits over pinned datasets."""

__version__ = "0.1.0"

# Start-up: each domain registers the derived tables it owns with sources/derived.py (the
# integrity domain first: the audit's exact copies read its verification).
from judgescope.integrity import tables as _integrity_tables  # noqa: E402,F401
from judgescope.audit import tables as _audit_tables  # noqa: E402,F401
