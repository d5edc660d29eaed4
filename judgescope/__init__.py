"""JudgeScope: explore LLM-as-judge audits over pinned datasets."""

__version__ = "0.1.0"
