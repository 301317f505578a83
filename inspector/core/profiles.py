"""The profiles the app can connect to: the saved ones (the `ProfileStore`, with the
built-in demo) and those given on the command line, which are kept for this run only.

Both kinds are looked up alike; they differ in where a change goes (the store saves, a
command-line profile changes in memory) and in whose pins a server's tools are checked
against (a command-line server has a new id each run, so its pins follow its target).
"""

from __future__ import annotations

from inspector.settings.profiles import Profile, ProfileStore, RootEntry

__all__ = ["KnownProfiles"]


class KnownProfiles:
    def __init__(self, store: ProfileStore) -> None:
        self.store = store
        self.adhoc: dict[str, Profile] = {}  # from the command line (not saved)

    def all(self) -> list[Profile]:
        return [*self.store.profiles, *self.adhoc.values()]

    def get(self, profile_id: str | None) -> Profile | None:
        if profile_id is None:
            return None
        return self.adhoc.get(profile_id) or self.store.get(profile_id)

    def add_adhoc(self, profile: Profile) -> None:
        self.adhoc[profile.id] = profile

    def is_adhoc(self, profile_id: str) -> bool:
        return profile_id in self.adhoc

    def save_adhoc(self, profile_id: str, name: str) -> Profile | None:
        """A command-line profile saved under `name` (same id: what uses it goes on); None
        when `profile_id` is no command-line profile. Raises what `ProfileStore.put`
        raises (ValueError: a name taken or a profile that does not validate)."""
        profile = self.adhoc.get(profile_id)
        if profile is None:
            return None
        saved = self.store.put(profile.model_copy(deep=True, update={"name": name}))
        del self.adhoc[profile_id]  # (a name the store refuses leaves it as it was)
        return saved

    def pin_scope(self, profile: Profile) -> str:
        """Whose pins `profile` uses: its own, or its target's when it is not saved."""
        return f"target:{profile.target}" if profile.id in self.adhoc else profile.id

    def keep_roots(self, base: Profile, roots: list[RootEntry]) -> None:
        """Keep `roots` in the profile: saved, or for this run (a built-in profile has
        nowhere to keep them; the live connection still uses them)."""
        if base.builtin:
            return
        updated = base.model_copy(deep=True, update={"roots": list(roots)})
        if base.id in self.adhoc:
            self.adhoc[base.id] = updated
        else:
            self.store.put(updated)
