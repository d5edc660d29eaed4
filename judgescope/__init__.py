"""JudgeScope: explore LLM-as-judge audits over pinned datasets."""

__version__ = "0.1.0"

# The domains that own derived tables, each registering them with sources/derived.py when
# imported; derived.py imports them on first use, in this order (the audit's exact copies read
# the integrity domain's verification). Nothing heavy is imported with the package itself.
TABLE_MODULES = ("judgescope.integrity.verification_tables", "judgescope.audit.record_tables",
                 "judgescope.audit.interval_tables")
