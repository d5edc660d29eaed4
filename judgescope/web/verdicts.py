"""Streamlit pieces of reviewing (issue #18): who reviews, the verdict panel on an opened record,
the review state of listed rows and the progress line. The rules are judgescope.reviews.states,
the storage judgescope.reviews.verdict_log and judgescope.reviews.database."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from urllib.parse import quote, unquote

import pandas as pd
import streamlit as st

from judgescope.reviews import checks as reviews_checks
from judgescope.reviews import database, verdict_log as reviews
from judgescope.reviews import sharing as reviews_hub
from judgescope.reviews import states
from judgescope.reviews import verdict_stats as reviews_stats
from judgescope.text import md_literal
from judgescope.web import context, render
from judgescope.web import urls

# Keys 1-4 (r and c are Streamlit's own; j and k move through the list).
BUTTONS = tuple((v, states.VERDICT_LABELS[v], key) for v, key in
                (("judge_right", "1"), ("too_harsh", "2"), ("too_lenient", "3"), ("unsure", "4")))
STATE_LIMIT = 200
NOTE_MAX_CHARS = 1 << 20  # a bound on what one request carries; notes are shown bounded anyway


def mode() -> str:
    """JUDGESCOPE_REVIEWS read by states.mode: off, login (st.login needed) or open. A database
    that can be read but not written keeps reviewing on for reading (read_only)."""
    return states.mode(os.environ.get("JUDGESCOPE_REVIEWS"), lambda: unavailable() and not read_only())


def unavailable() -> str | None:
    """One sentence when the reviews database is damaged, unreadable or read-only, else None."""
    return _unavailable(str(state_path()))


def read_only() -> str | None:
    """One sentence when the reviews database can be read but not written: its verdicts are
    shown and saving is off (no name field, no verdict buttons); else None."""
    return _read_only(str(state_path())) if unavailable() else None


@st.cache_data(ttl=30, max_entries=4, show_spinner=False)
def _unavailable(path: str) -> str | None:
    return database.unavailable(path)


@st.cache_data(ttl=30, max_entries=4, show_spinner=False)
def _read_only(path: str) -> str | None:
    return database.read_only(path)


def off_sentence() -> str:
    """Why reviewing is off: the database's problem, or the deployment's switch."""
    return unavailable() or "Reviewing is switched off on this deployment (JUDGESCOPE_REVIEWS=off)."


def state_path() -> Path:
    return database.default_path()


@st.cache_resource(max_entries=4, show_spinner="Merging the shared review logs…")
def _sharing(path: str):
    """Started once per process; a failure is kept too, so pages do not retry the Hub each run."""
    try:
        return reviews_hub.start(Path(path)), None
    except reviews_hub.NETWORK_ERRORS as err:
        return None, type(err).__name__


def sharing():
    """The Hub (or folder) sharing of this process; None when not configured or unreachable."""
    share, error = _sharing(str(state_path()))
    for refused in reviews_hub.REFUSED[:3]:
        st.warning(md_literal(f"A shared review log was not merged: {refused}", limit=400))
    if error:
        st.warning(f"Shared reviews are unavailable ({error}); verdicts are kept on this server "
                   "only until it restarts with the Hub reachable.")
    return share


def _login_configured() -> bool:
    try:
        return "auth" in st.secrets
    except FileNotFoundError:  # no secrets file: no login configured
        return False


COOKIE = "judgescope_reviewer"
COOKIE_DAYS = 365


def _cookie_name() -> str:
    """The reviewer name this browser kept (a cookie, sent with every page load and tab)."""
    try:
        raw = st.context.cookies.get(COOKIE)
    except Exception:  # noqa: BLE001 - no request context (a bare script run): no cookie
        raw = None
    return unquote(raw).strip()[:80] if isinstance(raw, str) else ""  # (a test harness: no str)


def current_reviewer() -> str | None:
    """Who reviews, without drawing anything: the logged-in user; else the name typed in this
    session; else the one this browser kept in its cookie. Never a URL parameter."""
    if mode() == "off":
        return None
    if st.user.get("is_logged_in"):  # absent, not False, when no login is configured
        return str(st.user.get("email") or st.user.get("name") or st.user.get("sub"))
    if mode() == "login":
        return None
    if "_reviewer" not in st.session_state:
        try:
            st.session_state["_reviewer"] = reviews_checks.reviewer_name(_cookie_name())
        except ValueError:  # no cookie, or one this version would not accept
            st.session_state["_reviewer"] = ""
    return st.session_state["_reviewer"] or None


def _remember(name: str) -> None:
    """Keep the name in a first-party cookie for a year (SameSite=Lax, path /), so a new tab or
    the next day knows the reviewer. The value is percent-encoded, then a JSON string literal."""
    value = json.dumps(quote(name, safe=""))
    st.html(f"<script>document.cookie = '{COOKIE}=' + {value} + '; path=/; max-age="
            f"{COOKIE_DAYS * 86400}; SameSite=Lax';</script>", unsafe_allow_javascript=True)


def _name_changed() -> None:
    typed = str(st.session_state.get("reviewer_name_input") or "").strip()[:80]
    try:
        st.session_state["_reviewer"] = reviews_checks.reviewer_name(typed) if typed else ""
    except ValueError as err:
        st.session_state["_reviewer"] = ""
        st.session_state["_review_error"] = str(err)


def reviewer() -> str | None:
    """The reviewer, with the field to type (or change) the name when there is no login; None
    while saving is off (read_only)."""
    if read_only():
        return None
    who = current_reviewer()
    if mode() == "off" or st.user.get("is_logged_in"):
        return who
    if mode() == "login":
        if _login_configured():
            st.button("Log in to record verdicts", key="review_login", on_click=st.login)
        else:
            st.caption("Reviewing requires a login, and this deployment has none configured.")
        return None
    if "reviewer_name_input" not in st.session_state:
        st.session_state["reviewer_name_input"] = who or ""
    st.text_input("Your reviewer name (shown on every verdict; this browser remembers it)",
                  key="reviewer_name_input", max_chars=80, on_change=_name_changed)
    who = current_reviewer()
    if who and who != _cookie_name():
        _remember(who)
    _warn_look_alike(who)
    return who


def _warn_look_alike(who: str | None) -> None:
    """A typed name that reads as another reviewer's (Cyrillic а for Latin a) is flagged."""
    try:
        note = reviews_checks.look_alike(who, reviews.reviewers(state_path())) if who else None
    except (database.ReviewStoreBusy, database.ReviewStoreUnavailable):
        return  # said once by the page (with_state)
    if note:
        st.warning(md_literal(note, limit=400, isolate=False))


def widget_keys(key: str, who: str, record_id: str) -> tuple[str, str]:
    """The tags and note widgets of one reviewer on one record: keys of their own, so nothing
    typed on one record is read when another is saved."""
    h = hashlib.sha256(json.dumps([who, str(record_id)]).encode("utf-8")).hexdigest()[:16]
    return f"{key}_tags_{h}", f"{key}_note_{h}"


def _keep_draft(ctx: dict, who: str, key: str) -> None:
    """A tags or note change: kept as this reviewer's draft on this record, on the server."""
    tkey, nkey = widget_keys(key, who, ctx["judge_record_id"])
    try:
        reviews.save_draft(who, ctx["dataset"], ctx["judge_record_id"],
                           st.session_state.get(tkey) or [], st.session_state.get(nkey) or "",
                           path=state_path())
    except (database.ReviewStoreBusy, database.ReviewStoreUnavailable) as err:
        st.session_state["_review_error"] = f"The draft was not kept: {err}"


def _save(ctx: dict, verdict: str, who: str, key: str) -> None:
    """A verdict button's callback: the verdict on this record with this record's tags and
    note, appended; the record's draft deleted; the confirmation names the record."""
    tkey, nkey = widget_keys(key, who, ctx["judge_record_id"])
    tags = st.session_state.get(tkey) or []
    note = st.session_state.get(nkey) or ""
    try:
        reviews.save_verdict(state_path(), reviewer=who, verdict=verdict, tags=tags, note=note, **ctx)
    except (database.ReviewStoreBusy, database.ReviewStoreUnavailable) as err:
        st.session_state["_review_error"] = str(err)
        return
    share = sharing()
    if share:
        share.after_write()
    st.session_state[tkey], st.session_state[nkey] = [], ""
    st.toast(f"Saved {states.VERDICT_LABELS[verdict]} on record {ctx['judge_record_id'][:80]}", icon=":material/check:")


def verdict_panel(r: pd.Series, key: str = "review", guidelines: str | None = None) -> None:
    """Every reviewer's latest verdict on row r, and buttons to record this session's."""
    if mode() == "off":
        return
    ctx = states.verdict_target(r, context.collection_name(), context.dataset_for("audit"))
    sharing()
    st.markdown("**Reviewer verdicts**")
    existing = reviews.for_record(ctx["dataset"], ctx["judge_record_id"], state_path())
    now = pd.DataFrame([{"judge_record_id": ctx["judge_record_id"], "source_text_sha256":
                         ctx["source_sha256"], "candidate_text_sha256": ctx["candidate_sha256"]}])
    stale = reviews_stats.changed_or_gone(existing, now)
    for i, v in existing.iterrows():
        tags = ", ".join(reviews_checks.shown_tags(v["tags"] or "[]"))
        st.markdown(f"{md_literal(v['reviewer'], 80)} · **{states.VERDICT_LABELS[v['verdict']]}**"
                    + (f" · {md_literal(tags)}" if tags else "")
                    + f" · {md_literal(v['created_at'][:16].replace('T', ' '))} UTC"
                    + (f" · *{md_literal(stale[i], 200)}*" if stale[i] else ""))
        if v["note"]:
            render.text_block(v["note"])
    if existing.empty:
        st.caption("No reviewer has given a verdict on this row yet.")
    if "_review_error" in st.session_state:
        st.error(st.session_state.pop("_review_error"))
    who = reviewer()
    if not who:
        return
    tkey, nkey = widget_keys(key, who, ctx["judge_record_id"])
    if tkey not in st.session_state and nkey not in st.session_state:  # first shown: its draft
        kept = reviews.draft(who, ctx["dataset"], ctx["judge_record_id"], state_path())
        if kept:
            st.session_state[tkey], st.session_state[nkey] = kept
    form, guide = st.columns([3, 2]) if guidelines else (st.container(), None)
    with form:
        st.pills("Tags", reviews.TAGS, selection_mode="multi", key=tkey, on_change=_keep_draft,
                 args=(ctx, who, key))
        st.text_area("Note (optional)", key=nkey, height=80, max_chars=NOTE_MAX_CHARS,
                     on_change=_keep_draft, args=(ctx, who, key))
        if st.session_state.get(tkey) or st.session_state.get(nkey):
            st.caption(f"Unsaved draft on record {md_literal(ctx['judge_record_id'], 80)}: kept "
                       "on the server for you until you give a verdict on this record.")
    if guide is not None:
        with guide.container(border=True):
            st.markdown("**Review guidelines**")
            render.text_block(guidelines)
    row = st.container(horizontal=True)  # buttons as wide as their labels, wrapping on a phone
    for verdict, label, short in BUTTONS:
        row.button(label, key=f"{key}_verdict_{verdict}", shortcut=short, on_click=_save,
                   args=(ctx, verdict, who, key),
                   help=f"Record “{label}” on this record as {who} ({short})")
    mine = existing[existing.reviewer == who]
    row.button("Retract mine", key=f"{key}_verdict_retracted", disabled=mine.empty,
               on_click=_save, args=(ctx, "retracted", who, key))


def reviewed_ids(dataset: str | None = None) -> pd.DataFrame:
    """Latest verdicts of the active audit dataset (empty when reviewing is off)."""
    if mode() == "off":
        return pd.DataFrame(columns=list(reviews.COLUMNS))
    sharing()  # the shared logs are merged once per process, before the first read
    loaded = context.dataset_for("audit")
    return reviews.latest(state_path(), dataset or (loaded.spec.name if loaded else None))


def progress(filters: dict, total: int) -> None:
    """'Reviewed k of n rows under the current filters.'"""
    if mode() == "off":
        return
    ids = sorted(reviewed_ids().judge_record_id.unique().tolist())
    k = int(context.run("audit_reviewed_count", ids=ids, **filters)["rows"].iloc[0]) if ids else 0
    st.progress(k / total if total else 0.0,
                text=f"Reviewed {k:,} of {total:,} rows under the current filters")


def with_state(rows: pd.DataFrame) -> pd.DataFrame:
    """The listed rows led by a 'Review' column (not yet reviewed, disputed, or the verdict) and,
    for the reviewer of this session, a 'Draft' column marking rows with an unsaved draft. Review
    and Exact copies call it once per run, so it says (once) when reviewing is unavailable."""
    problem = (read_only() or unavailable()) if os.environ.get("JUDGESCOPE_REVIEWS", "open") != "off" else None
    if problem:
        st.warning(problem)
    if mode() == "off" or rows.empty:
        return rows
    latest = reviewed_ids()
    latest = latest[latest.judge_record_id.isin(rows.judge_record_id)]
    # First: the columns a reviewer works by, in view at any width before the ~15 of the row.
    out = rows.copy()
    out.insert(0, "review", states.row_states(latest, rows.judge_record_id))
    who, loaded = current_reviewer(), context.dataset_for("audit")
    if who and loaded:
        drafted = set(reviews.drafts(who, loaded.spec.name, state_path()).judge_record_id)
        out.insert(1, "draft", ["unsaved draft" if i in drafted else None for i in rows.judge_record_id])
    return out


def log() -> pd.DataFrame:
    """Every review row of the active audit dataset, retractions included."""
    loaded = context.dataset_for("audit")
    return reviews.log(state_path(), loaded.spec.name if loaded else None)


def pick_and_review(rows: pd.DataFrame, key: str = "copies") -> None:
    """Under a list of rows (Exact copies): how many are reviewed, and a verdict on one picked."""
    if mode() == "off" or rows.empty:
        return
    listed = with_state(rows)
    done = int((listed.review != states.NOT_REVIEWED).sum())
    st.progress(done / len(rows), text=f"Reviewed {done:,} of {len(rows):,} listed rows")
    with st.expander("Give a verdict on one of these rows"):
        rid = st.selectbox("Row", [None, *rows.judge_record_id], key=f"{key}_pick",
                           format_func=lambda i: "…" if i is None else str(i))
        record = context.run("audit_record", record_id=rid) if rid else None
        if record is not None and not record.empty:
            verdict_panel(record.iloc[0], key=key)


def state_filter(filters: dict) -> None:
    """On Review: the filtered rows in one review state (URL ?rstate=…), each linking to its record."""
    if mode() == "off":
        return
    state = st.pills("Review state", states.STATES, key=urls.bound("rstate", states.STATES), bind="query-params")
    if not state:
        return
    ids, exclude = states.ids_in_state(reviewed_ids(), state)
    rows = context.run("audit_rows_by_review_state", ids=ids, exclude=exclude, limit=STATE_LIMIT, **filters)
    st.markdown(f"Rows **{md_literal(state)}** under the current filters"
                + (f" (the first {STATE_LIMIT})" if len(rows) == STATE_LIMIT else "") + ":")
    render.table(urls.with_record_links(with_state(rows)), placeholder="n/a", column_config=urls.RECORD_LINK)
