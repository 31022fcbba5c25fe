"""Key-shaped values in what a saved request's scenario would show (``providers.<id>.extra``, ``headers``): each
replaced by a stand-in while the scenario is checked and rendered back, and printed as the ``$NAME`` the sender reads
(``saved_request`` imports the request; this module holds only the replacing)."""

from __future__ import annotations

import json
from typing import Any, NamedTuple


class Ref(NamedTuple):
    stand_in: str  # what the scenario holds while it is checked and rendered back (no key, no variable to read)
    reference: str  # what it holds when printed: the $NAME the sender reads with --allow-env NAME
    where: str


def paired_keys(value: Any) -> frozenset[str]:
    """The texts that are keys in ``value``'s JSON text read as one text: an AWS secret access key in one string
    beside the access key id another holds (key_looks._aws_secret_spans), which a string read alone does not show."""
    from .key_looks import _pattern_spans

    text = json.dumps(value, ensure_ascii=False)
    return frozenset(text[start:end] for start, end in _pattern_spans(text)) if "AKIA" in text or "ASIA" in text \
        else frozenset()


def key_refs(value: Any, where: str, field: str, credential: bool, refs: dict[str, Ref], only: bool = False,
             header: bool = False, paired: frozenset[str] = frozenset()) -> Any:
    """``value`` with every text the scenario reader refuses in ``providers.<id>.extra`` and ``headers`` (a key's
    shape; text of a key in a field named for a credential: literal_keys.check_extra, check_header_shape) replaced
    by a stand-in, kept in ``refs`` with the ``$NAME`` reference the refusal suggests (``MY_API_KEY``, or the
    field's or header's name in upper case; a second key of the same name ``_2``). ``only``: replace the values
    already in ``refs``, nothing else; ``header``: a header's value."""
    from .key_looks import credential_field
    from .literal_keys import key_said, scheme_word, variable_for

    if isinstance(value, dict):
        return {k: key_refs(v, f"{where}.{k}", str(k), credential_field(str(k)), refs, only, paired=paired)
                for k, v in value.items()}
    if isinstance(value, list):
        return [key_refs(v, f"{where}[{i}]", field, credential, refs, only, paired=paired)
                for i, v in enumerate(value)]
    if not isinstance(value, str):
        return value
    if value in refs:
        return refs[value].stand_in
    if only or not (key_said(value, credential) or value in paired):  # paired: the AWS secret beside its key id
        return value
    var = variable_for(field) if credential or header else "MY_API_KEY"
    taken = {r.reference.rpartition("$")[2] for r in refs.values()}
    name, n = var, 1
    while name in taken:
        n += 1
        name = f"{var}_{n}"
    refs[value] = Ref(f"[key {len(refs) + 1}]", f"{scheme_word(value, credential)}${name}", where)
    return refs[value].stand_in
