"""Errors the importer raises. Each carries a stable ``code`` that callers may test."""

from __future__ import annotations

# Stable codes.
FILE_NOT_FOUND = "file_not_found"
EMPTY_FILE = "empty_file"
UNKNOWN_FORMAT = "unknown_format"
BAD_GZIP = "bad_gzip"
INVALID_JSON = "invalid_json"
INVALID_XML = "invalid_xml"
BAD_RECORD = "bad_record"
DATABASE_ERROR = "database_error"


class CardImportError(Exception):
    """Base class: something in the input (or the database) stopped the import."""

    code = "import_error"

    def __init__(self, message: str, *, code: str | None = None, path: str | None = None):
        self.code = code or self.code
        self.path = path
        self.message = message
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        return f"{where}{self.message} [{self.code}]"


class ImportFormatError(CardImportError):
    """The file as a whole cannot be read: missing, empty, unknown, truncated or not parseable."""

    code = UNKNOWN_FORMAT


class RecordError(CardImportError):
    """One record is malformed. Names the file, the record's position and its name or id."""

    code = BAD_RECORD

    def __init__(
        self,
        reason: str,
        *,
        path: str | None = None,
        index: int | None = None,
        section: str = "record",
        ident: str | None = None,
        code: str | None = None,
    ):
        self.reason = reason
        self.index = index
        self.section = section
        self.ident = ident
        where = f"{section} #{index}" if index is not None else section
        if ident:
            where += f" ({ident})"
        super().__init__(f"{where}: {reason}", code=code, path=path)
