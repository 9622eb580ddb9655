"""Resource groups carrying mcscope's tag that the database does not know (made by a lost
database, another installation or the command-line tool): listed, deleted only when asked."""

from pydantic import BaseModel, Field


class UntrackedGroupPublic(BaseModel):
    name: str = Field(description="the resource group's name")
    location: str = Field(description="its Azure region")
    testbed: str = Field(description="its mcscope-testbed tag")
    owner: str | None = Field(description="its mcscope-owner tag")
    created: str | None = Field(description="its mcscope-created tag (ISO 8601, UTC)")
    expires: str | None = Field(description="its mcscope-expires tag (ISO 8601, UTC)")


class UntrackedGroupsPublic(BaseModel):
    data: list[UntrackedGroupPublic] = Field(description="untracked groups, by name")
    count: int = Field(description="number of untracked groups")
