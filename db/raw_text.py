"""How the text of a rejected line is stored: cut short, with what PostgreSQL cannot hold
escaped. The reader applies it to every `Rejected` it makes and the import again on write,
so a record looks the same before and after it is stored."""

from __future__ import annotations

RAW_TEXT_LIMIT = 200  # characters of a rejected line kept in rejected_lines.raw_text


def clean_raw_text(raw: str) -> str:
    """The text cut to `RAW_TEXT_LIMIT` characters, NUL written as `\\x00` and characters
    UTF-8 cannot encode (lone surrogates) as backslash escapes: PostgreSQL text holds
    neither. Cleaning clean text changes nothing."""
    text = raw[:RAW_TEXT_LIMIT].replace("\x00", "\\x00")
    return text.encode("utf-8", "backslashreplace").decode("utf-8")[:RAW_TEXT_LIMIT]
