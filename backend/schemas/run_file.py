"""A run's raw files as the run page's viewer reads them: the list, and a page of one file."""

from pydantic import BaseModel, Field


class RunFilePublic(BaseModel):
    path: str = Field(description="path inside the run's archive: attempt/host/file")
    size_bytes: int = Field(description="file size, bytes")


class RunFilesPublic(BaseModel):
    data: list[RunFilePublic]
    count: int


class RunFilePagePublic(BaseModel):
    path: str = Field(description="path inside the run's archive")
    offset: int = Field(description="first byte of this page")
    next_offset: int | None = Field(description="first byte of the next page; null at the end")
    size_bytes: int = Field(description="file size, bytes")
    binary: bool = Field(description="the page holds NUL bytes: download the file to read it")
    text: str = Field(description="the page decoded as UTF-8 (invalid bytes replaced)")
