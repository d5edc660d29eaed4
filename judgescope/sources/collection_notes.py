"""What a collection cannot use, said plainly: datasets that failed to load, and datasets a
role already filled by an earlier dataset of the same kind leaves unused (catalog.roles)."""

from __future__ import annotations

from judgescope.schema import SCHEMAS


def assign_roles(datasets: list, previous: str | None) -> tuple[dict, list[tuple]]:
    """(view name → dataset, [(ignored dataset, its role, the dataset that has the role)]):
    the first usable dataset of a kind takes its role, `previous` takes `audit_previous`."""
    roles: dict = {}
    ignored: list[tuple] = []
    for loaded in datasets:
        role = SCHEMAS[loaded.spec.kind].role if loaded.spec.kind in SCHEMAS else None
        if loaded.spec.name == previous:
            role = "audit_previous"
        if not (role and loaded.ok):
            continue
        if role in roles:
            ignored.append((loaded, role, roles[role]))
        else:
            roles[role] = loaded
    return roles, ignored


def notices(datasets: list, previous: str | None, detail: bool = True) -> list[str]:
    """One sentence per dataset of the collection that none of its pages uses, and why (the
    dataset's error itself only with `detail`, where the page does not show it elsewhere)."""
    why = (lambda d: f": {d.error}") if detail else (lambda d: " (its error is shown with it below)")
    out = [f"Dataset {d.spec.name} is unusable, so its rows are in no page or count{why(d)}"
           for d in datasets if not d.ok]
    for loaded, role, taken in assign_roles(datasets, previous)[1]:
        out.append(f"Dataset {loaded.spec.name} ({loaded.spec.kind}) is ignored: dataset "
                   f"{taken.spec.name} already fills this collection's {role} view, and a "
                   "collection uses one dataset per kind; give it a collection of its own "
                   "(or name it as `previous`).")
    return out
