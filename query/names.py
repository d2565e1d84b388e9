"""The names a question may call an issuer by, from the name its filing prints.

A filing's cover prints "JOHNSON & JOHNSON", "ADVANCED MICRO DEVICES, INC." or "Foot Locker, Inc."; a
question says "JnJ", "AMD" or "Footlocker". The usual short forms are made from the printed name by
rules that hold for any company, never from a list of companies: the name without its legal words, its
words joined ("Foot Locker" -> "footlocker"), the initials of a name of three words or more ("Advanced
Micro Devices" -> "amd"), and for "X & Y" the initials read with "and" ("jnj", "jj"). Catalog selection
(query/search.py) adds them to each document's name field.
"""

from __future__ import annotations

import re

from index_store.model import LEGAL_WORDS  # one list for indexing and matching (query.periods imports it from here)
_NOT_CORE = LEGAL_WORDS | {"of", "and"}  # nor are connecting words part of a short form ("Bank of America" -> "bankamerica")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|&")
# "MGM R ESORTS I NTERNATIONAL": small capitals extracted with their larger first letter set apart.
_SPLIT_CAPS = re.compile(r"\b([A-Z]) ([A-Z]{2,})\b")


def mend_small_caps(name: str) -> str:
    """Join a capital letter set apart from the rest of its word in an all-capitals name."""
    return _SPLIT_CAPS.sub(r"\1\2", name) if name.isupper() else name


def short_forms(name: str) -> list[str]:
    """Short forms of an issuer's printed name (see the module docstring); lower case, may be empty."""
    words = [w for w in _WORD.findall(mend_small_caps(name).lower())]
    core = [w for w in words if w not in _NOT_CORE]
    if not core:
        return []
    out = []
    plain = [w for w in core if w != "&"]
    if len(plain) >= 2:
        out.append("".join(plain))
    if len(core) == 3 and core[1] == "&":
        a, b = plain[0][0], plain[1][0]
        out += [f"{a}n{b}", f"{a}{b}"]
    elif len(plain) >= 3:
        out.append("".join(w[0] for w in plain))
    return list(dict.fromkeys(out))
