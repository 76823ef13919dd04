#!/usr/bin/env python3
"""Deterministic generator of realistic relaylint benchmark data.

Writes, into --out (default: Benchmarks/data/<N>):
  events.jsonl   the action log (docs/inputs.md), exactly N lines
  accounts.json  a `firebase auth:export` JSON file (docs/inputs.md) of the accounts that still
                 exist at the end of the log (deleted accounts are missing, as in a real export)
  manifest.yml   the app manifest for the two apps of the log

Usage:
  python3 Benchmarks/generate.py --events 1000000 [--accounts 200000] [--seed 1] [--out DIR] [--unique-ids]

The same --seed and sizes always give byte-identical files. The data mimics Examples/: two apps
sharing one Firebase project, ~30% of subjects signing up with a hidden-email Apple ID, the others
with Google, Facebook, other social providers, password or phone; sign-ins, mail, consents,
identity links and unlinks (kinds email, phone, provider), deletions with revocations and Apple
notifications. Every per-subject rule has violations and compliant cases, including the hard
cases of docs/inputs.md (equal instants ordered by input order, offsets, fractions,
epoch-millisecond times, "true" as a string, private.icloud.com, mixed-case relay domains with
trailing spaces, look-alike domains, links "the other way round", unlinked Apple IDs, revocations
written before the deletion but timed after it, re-sign-in after revocation, exact duplicates with
another key order).

The log is not sorted: each subject's story is time-ordered (with a few adjacent events swapped in
the file), and the stories of a pool of concurrently active subjects are interleaved at random.
--accounts is the number of subjects (default N/5); about 7% of them are deleted in the log and so
absent from the export, ~1% have no events at all. Lines average about 182 bytes (shaped like
Examples/: 28-character Firebase UIDs, bundle ids, addresses), a little more than the 168 bytes of
the issue's data set.
"""

import argparse
import base64
import datetime
import json
import os
import random
import sys

APPS = ("com.sparrow.notes", "com.sparrow.recipes")
SENDERS = (
    "noreply@sparrownotes.app",
    "noreply@sparrownotes.app",
    "digest@sparrownotes.app",
    "noreply@sparrow-notes-7f3a1.firebaseapp.com",
)
RELAY = "privaterelay.appleid.com"
FIRST = ("maya", "tomas", "priya", "jonas", "daniel", "hannah", "zoe", "kenji", "fatima", "chidi",
         "lena", "marcus", "ana", "oliver", "sofia", "liam", "grace", "noah", "emma", "aisha",
         "lucas", "mei", "omar", "ines", "viktor", "sara", "diego", "yuki", "amara", "felix")
LAST = ("kowalski", "ferreira", "natarajan", "berg", "reyes", "schmidt", "laurent", "watanabe",
        "haddad", "okafor", "novak", "bell", "souza", "grant", "russo", "oconnor", "liu", "fischer",
        "larsen", "bello", "martin", "chen", "farouk", "garcia", "petrov", "lindqvist", "morales")
DISPLAY = {f: f.capitalize() for f in FIRST}
MAIL_DOMAINS = ("example.com", "example.org", "example.net", "mail.example.com")
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
LOWER36 = "abcdefghijklmnopqrstuvwxyz0123456789"
HEX = "0123456789abcdef"
OFFSETS = (120, -300, 330, 540, -480, 60)          # minutes east of UTC
SOCIAL_MAIN = ("google.com", "facebook.com")
SOCIAL_OTHER = ("github.com", "twitter.com", "microsoft.com", "yahoo.com")
OLD_CLI_PROVIDERS = {"google.com", "facebook.com", "twitter.com", "github.com"}
START = int(datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc).timestamp())
SPAN = 540 * 86400                                   # stories start within ~18 months
NS = 1_000_000_000

# time representations
Z, OFF, EPOCH, ZMS, LOWER = 0, 1, 2, 3, 4

_days = {}


def day_string(day):
    s = _days.get(day)
    if s is None:
        s = (datetime.date(1970, 1, 1) + datetime.timedelta(days=day)).isoformat()
        _days[day] = s
    return s


def format_time(t_ns, rep, rng):
    """The JSON text of a `time` value for the instant t_ns (exact in every representation)."""
    secs, frac = divmod(t_ns, NS)
    if rep == EPOCH:
        return str(t_ns // 1_000_000)                  # callers keep EPOCH times ms-exact
    if frac == 0:
        f = ".000" if rep == ZMS else ""
    elif frac % 100_000_000 == 0:
        f = "." + str(frac // 100_000_000)
    elif frac % 1_000_000 == 0:
        f = f".{frac // 1_000_000:03d}"
    elif frac % 1000 == 0:
        f = f".{frac // 1000:06d}"
    else:
        f = f".{frac:09d}"
    tz = "Z"
    if rep == OFF:
        off = OFFSETS[rng.randrange(len(OFFSETS))]
        secs += off * 60
        sign = "+" if off >= 0 else "-"
        tz = f"{sign}{abs(off) // 60:02d}:{abs(off) % 60:02d}"
    day, rest = divmod(secs, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    text = f"{day_string(day)}T{h:02d}:{m:02d}:{s:02d}{f}{tz}"
    if rep == LOWER:
        text = text.replace("T", "t").replace("Z", "z")
    return '"' + text + '"'


class Story:
    """One subject's events in time order, built with a moving clock."""

    __slots__ = ("rng", "t", "events", "app")

    def __init__(self, rng, start_s, app):
        self.rng = rng
        self.t = start_s * NS
        self.events = []     # (t_ns, rep, type, fields-text)
        self.app = app

    def wait(self, lo, hi):
        self.t += self.rng.randint(lo, hi) * NS

    def days(self, mean):
        self.t += (int(self.rng.expovariate(1.0 / (mean * 86400))) + 1) * NS

    def add(self, typ, fields, rep=None, t=None):
        rng = self.rng
        t = self.t if t is None else t
        if rep is None:
            r = rng.random()
            if r < 0.80:
                rep = Z
            elif r < 0.95:
                rep = Z
                k = rng.random()           # a fraction: ms, µs, one digit, ns
                if k < 0.6:
                    t += rng.randrange(1, 1000) * 1_000_000
                elif k < 0.8:
                    t += rng.randrange(1, 1_000_000) * 1000
                elif k < 0.9:
                    t += rng.randrange(1, 10) * 100_000_000
                else:
                    t += rng.randrange(1, NS)
            elif r < 0.985:
                rep = OFF
            elif r < 0.9995:
                rep = EPOCH
                t += rng.randrange(0, 1000) * 1_000_000
            else:
                rep = LOWER
        self.events.append((t, rep, typ, fields))
        return t


def base36(n, pad="0"):
    """n in base 36 with the digits LOWER36, padded to 6 with `pad`. The default pad "0" is also
    the digit 26, so ids collide (seq 937 and 1 both give "00000b": 1,295 reused ids at 1M events,
    46,655 at 10M, each of two subjects); pad="a" (the digit 0) gives unique ids. The default is
    kept so that the data of earlier rounds stays the same; --unique-ids pads with "a"."""
    digits = []
    while n:
        n, r = divmod(n, 36)
        digits.append(LOWER36[r])
    return "".join(reversed(digits)).rjust(6, pad)


def rand_id(rng, n=28):
    return "".join(rng.choices(ALNUM, k=n))


def relay_local(rng):
    return "".join(rng.choices(LOWER36, k=10))


def real_email(rng, first, last):
    r = rng.random()
    if r < 0.5:
        local = f"{first}.{last}"
    elif r < 0.8:
        local = f"{first[0]}.{last}{rng.randrange(1, 100)}"
    else:
        local = f"{first}{rng.randrange(1, 1000)}"
    return f"{local}@{MAIL_DOMAINS[rng.randrange(len(MAIL_DOMAINS))]}"


def phone_number(rng):
    return f"+1{rng.randrange(201, 990)}555{rng.randrange(100, 200):04d}"


def phone_written(rng, e164):
    """A phone number as an app may log it: E.164 or formatted."""
    if rng.random() < 0.7:
        return e164
    d = e164[2:]
    return f"+1 ({d[:3]}) {d[3:6]}-{d[6:]}"


def b64(rng, n):
    return base64.b64encode(rng.getrandbits(8 * n).to_bytes(n, "big")).decode()


class Generator:
    def __init__(self, seed, n_events, n_accounts, out, unique_ids=False):
        self.rng = random.Random(seed)
        self.id_pad = "a" if unique_ids else "0"
        self.n_events = n_events
        self.n_subjects = n_accounts
        self.out = out
        self.exported = 0
        self.first_user = True

    # ----------------------------------------------------------------- stories
    def story(self, budget):
        """Builds one subject: (subject id, app, events, export user text or None)."""
        rng = self.rng
        subject = rand_id(rng)
        app = APPS[0] if rng.random() < 0.7 else APPS[1]
        start = START + rng.randrange(SPAN)
        st = Story(rng, start, app)
        first, last = FIRST[rng.randrange(len(FIRST))], LAST[rng.randrange(len(LAST))]
        name = f"{DISPLAY[first]} {last.capitalize()}"

        # identities held at the end (for the export)
        apple = None          # dict(email=..., anon=bool) while held
        socials = {}          # provider -> (rawId, email)
        phone = None          # E.164
        password_email = None
        contact_emails = []
        primary = None

        r = rng.random()
        if r < 0.30:
            kind = "apple_relay"
        elif r < 0.34:
            kind = "apple_real"
        elif r < 0.60:
            kind = "google.com"
        elif r < 0.68:
            kind = "facebook.com"
        elif r < 0.71:
            kind = SOCIAL_OTHER[rng.randrange(len(SOCIAL_OTHER))]
        elif r < 0.91:
            kind = "password"
        else:
            kind = "phone"
        log_starts_late = rng.random() < 0.05     # account created before the log began
        created_s = start - (rng.randrange(30, 300) * 86400 if log_starts_late else 0)
        created_ms = created_s * 1000 - rng.randrange(100, 900)
        signup = "signin" if log_starts_late else "account.created"

        # ---- sign-up
        if kind == "apple_relay":
            v = rng.random()
            if v < 0.85:
                addr = f"{relay_local(rng)}@{RELAY}"
                fields = f',"provider":"apple.com","email":"{addr}","is_private_email":true'
            elif v < 0.90:
                addr = f"{relay_local(rng)}@{RELAY}"
                fields = f',"provider":"apple.com","email":"{addr}","is_private_email":"true"'
            elif v < 0.95:
                addr = f"{first}.{relay_local(rng)[:6]}.{rng.randrange(10, 99)}@private.icloud.com"
                fields = f',"provider":"apple.com","email":"{addr}"'
            elif v < 0.98:
                addr = f"{relay_local(rng)}@{RELAY}"
                fields = f',"provider":"apple.com","email":"{addr}"'
            else:
                local = relay_local(rng).upper()
                addr = f"{local}@PRIVATERELAY.APPLEID.COM"
                fields = f',"provider":"apple.com","email":"{local.lower()}@PrivateRelay.AppleID.com "'
            apple = {"email": addr, "anon": True, "raw": self.apple_raw()}
            primary = addr
            st.add(signup, fields)
        elif kind == "apple_real":
            if rng.random() < 0.1:
                addr = f"{first}.{last}@privaterelay.apple.id.com"      # look-alike, not a relay
            else:
                addr = f"{first}.{last}@icloud.com"
            apple = {"email": addr, "anon": False, "raw": self.apple_raw()}
            primary = addr
            st.add(signup, f',"provider":"apple.com","email":"{addr}","is_private_email":false')
        elif kind == "password":
            password_email = real_email(rng, first, last)
            primary = password_email
            st.add(signup, f',"provider":"password","email":"{password_email}"')
        elif kind == "phone":
            phone = phone_number(rng)
            st.add(signup, ',"provider":"phone"')
        else:
            addr = real_email(rng, first, last)
            socials[kind] = (self.social_raw(kind), addr)
            primary = addr
            st.add(signup, f',"provider":"{kind}","email":"{addr}"')

        is_apple_anon = kind == "apple_relay"

        def mail(to):
            st.wait(5, 40)
            st.add("email.sent", f',"to":"{to}","from":"{SENDERS[rng.randrange(4)]}"')

        if primary and rng.random() < 0.2:
            mail(primary.strip().lower() if kind != "apple_relay" else apple["email"].lower())

        def consent(scope, how):
            """Writes the consent pattern `how` before a link; returns nothing."""
            if how == "granted":
                st.days(3)
                st.add("consent.granted", f',"scope":"link.{scope}"')
                st.wait(5, 180)
            elif how == "same_instant":
                st.days(3)
                t = st.t
                st.add("consent.granted", f',"scope":"link.{scope}"', rep=OFF, t=t)
                return t
            elif how == "withdrawn":
                st.days(3)
                st.add("consent.granted", f',"scope":"link.{scope}"')
                st.days(5)
                st.add("consent.withdrawn", f',"scope":"link.{scope}"')
                st.days(2)
            elif how == "regranted":
                st.days(3)
                st.add("consent.granted", f',"scope":"link.{scope}"')
                st.days(5)
                st.add("consent.withdrawn", f',"scope":"link.{scope}"')
                st.days(2)
                st.add("consent.granted", f',"scope":"link.{scope}"')
                st.wait(5, 120)
            elif how == "other_scope":
                other = {"email": "phone", "phone": "social", "social": "email"}[scope]
                st.days(3)
                st.add("consent.granted", f',"scope":"link.{other}"')
                st.wait(5, 180)
            else:                                   # none
                st.days(4)
            return None

        def consent_how():
            c = rng.random()
            if c < 0.74:
                return "granted"
            if c < 0.78:
                return "same_instant"
            if c < 0.80:
                return "regranted"
            if c < 0.88:
                return "none"
            if c < 0.94:
                return "withdrawn"
            return "other_scope"

        def link_at(same_t, fields):
            if same_t is not None:
                # the same instant written another way, after the consent in the file
                st.add("identity.linked", fields, rep=ZMS if rng.random() < 0.5 else Z, t=same_t)
            else:
                st.add("identity.linked", fields)

        # ---- padding activity before the interesting part
        def pad(n):
            for _ in range(n):
                st.days(6)
                if rng.random() < 0.85:
                    self.signin(st, kind, apple, socials, password_email, primary)
                else:
                    to = (apple["email"].lower() if apple and apple["anon"] else primary) or None
                    if to:
                        st.add("email.sent", f',"to":"{to}","from":"{SENDERS[rng.randrange(4)]}"')
                    else:
                        self.signin(st, kind, apple, socials, password_email, primary)

        pad(rng.randrange(0, 3))

        # ---- links on an anonymized subject
        if is_apple_anon and rng.random() < 0.20:
            what = rng.random()
            if rng.random() < 0.05:                 # Apple unlinked first: not anonymized any more
                st.days(10)
                st.add("identity.unlinked", f',"kind":"provider","provider":"apple.com","value":"{apple["raw"]}"')
                apple = None
                is_apple_anon = False
                if primary and RELAY in primary.lower() or (primary and "private.icloud" in primary):
                    primary = None
            if what < 0.5:
                if rng.random() < 0.05:             # a second relay address is not PII
                    st.days(3)
                    st.add("identity.linked", f',"kind":"email","value":" {relay_local(rng)}@private.icloud.com "')
                else:
                    addr = real_email(rng, first, last)
                    same = consent("email", consent_how())
                    if rng.random() < 0.4:
                        password_email = addr
                        link_at(same, f',"kind":"email","provider":"password","value":"{addr}"')
                    else:
                        contact_emails.append(addr)
                        link_at(same, f',"kind":"email","value":"{addr}"')
            elif what < 0.75:
                num = phone_number(rng)
                same = consent("phone", consent_how())
                link_at(same, f',"kind":"phone","value":"{phone_written(rng, num)}"')
                phone = num
            else:
                prov = SOCIAL_MAIN[rng.randrange(2)] if rng.random() < 0.85 else SOCIAL_OTHER[rng.randrange(4)]
                raw = self.social_raw(prov)
                addr = real_email(rng, first, last)
                same = consent("social", consent_how())
                link_at(same, f',"kind":"provider","provider":"{prov}","value":"{raw}","email":"{addr}"')
                socials[prov] = (raw, addr)
            if rng.random() < 0.01:                 # link first, consent at the same instant after it
                t = st.t + 3600 * NS
                addr = real_email(rng, first, last)
                st.add("identity.linked", f',"kind":"email","value":"{addr}"', rep=Z, t=t)
                st.add("consent.granted", ',"scope":"link.email"', rep=OFF, t=t)
                st.t = t
                contact_emails.append(addr)

        # ---- Apple ID linked "the other way round" to an account with PII
        elif kind in ("password", "phone", "google.com", "facebook.com") and rng.random() < 0.08:
            scope = {"password": "email", "phone": "phone"}.get(kind, "social")
            same = consent(scope, consent_how())
            raw = self.apple_raw()
            v = rng.random()
            if v < 0.55:
                addr = f"{relay_local(rng)}@{RELAY}"
                fields = f',"kind":"provider","provider":"apple.com","value":"{raw}","email":"{addr}","is_private_email":true'
                anon = True
            elif v < 0.75:
                addr = None
                fields = f',"kind":"provider","provider":"apple.com","value":"{raw}","is_private_email":"true"'
                anon = True
            elif v < 0.85:
                addr = f"{relay_local(rng)}@{RELAY}"
                fields = f',"provider":"apple.com","email":"{addr}"'
                anon = True
            else:                                   # shares the real address: not anonymized
                addr = f"{first}.{last}@icloud.com"
                fields = f',"kind":"provider","provider":"apple.com","value":"{raw}","email":"{addr}","is_private_email":false'
                anon = False
            link_at(same, fields)
            apple = {"email": addr or f"{relay_local(rng)}@{RELAY}", "anon": anon, "raw": raw}
            is_apple_anon = anon

        # ---- links on subjects that are not anonymized (no rule applies)
        elif rng.random() < 0.06:
            st.days(8)
            v = rng.random()
            if v < 0.4 and phone is None:
                num = phone_number(rng)
                st.add("identity.linked", f',"kind":"phone","value":"{phone_written(rng, num)}"')
                phone = num
            elif v < 0.7 and "google.com" not in socials:
                raw, addr = self.social_raw("google.com"), real_email(rng, first, last)
                st.add("identity.linked", f',"kind":"provider","provider":"google.com","value":"{raw}","email":"{addr}"')
                socials["google.com"] = (raw, addr)
            else:
                addr = real_email(rng, first, last)
                st.add("identity.linked", f',"kind":"email","value":"{addr}"')
                contact_emails.append(addr)

        # ---- later unlinks of a linked identity
        if rng.random() < 0.02:
            st.days(15)
            if contact_emails:
                addr = contact_emails.pop()
                st.add("identity.unlinked", f',"kind":"email","value":"{addr}"')
            elif len(socials) > 1 or (socials and (apple or password_email)):
                prov = sorted(socials)[-1]
                raw, _ = socials.pop(prov)
                st.add("identity.unlinked", f',"kind":"provider","provider":"{prov}","value":"{raw}"')

        # ---- Apple's notifications about the relay
        if is_apple_anon and rng.random() < 0.04:
            st.days(10)
            st.add("apple.notification", ',"event":"email-disabled"')
            if rng.random() < 0.5:
                mail(apple["email"].lower())
            st.days(10)
            st.add("apple.notification", ',"event":"email-enabled"')

        # ---- deletion
        deleted = rng.random() < 0.07
        pad_n = max(0, budget - len(st.events) - (6 if deleted else 0))
        pad(pad_n)
        if deleted:
            self.deletion(st, apple)
            if rng.random() < 0.03:
                st.days(20)            # a late notification after the account is gone
                st.add("apple.notification", ',"event":"consent-revoked"')

        events = st.events
        if len(events) > 2 and rng.random() < 0.03:      # two adjacent events swapped in the file
            i = rng.randrange(len(events) - 1)
            events[i], events[i + 1] = events[i + 1], events[i]

        if deleted:
            return subject, app, events, None
        last_ms = max(created_ms, max((e[0] for e in events), default=0) // 1_000_000)
        return subject, app, events, self.user_json(
            subject, name, created_ms, last_ms, primary, apple, socials, phone, password_email)

    def apple_raw(self):
        return "001437." + "".join(self.rng.choices(HEX, k=32)) + ".1204"

    def social_raw(self, prov):
        rng = self.rng
        if prov == "google.com":
            return str(rng.randrange(10 ** 20, 2 * 10 ** 20))
        return str(rng.randrange(10 ** 15, 10 ** 16))

    def signin(self, st, kind, apple, socials, password_email, primary):
        rng = self.rng
        if apple is not None and (kind in ("apple_relay", "apple_real") or rng.random() < 0.5):
            if apple["anon"]:
                v = rng.random()
                if v < 0.5:
                    st.add("signin", ',"provider":"apple.com"')
                elif v < 0.85:
                    st.add("signin", ',"provider":"apple.com","is_private_email":true')
                else:
                    st.add("signin", f',"provider":"apple.com","email":"{apple["email"].lower()}","is_private_email":true')
            else:
                st.add("signin", f',"provider":"apple.com","email":"{apple["email"]}","is_private_email":false')
        elif socials:
            prov = next(iter(socials))
            if rng.random() < 0.3:
                st.add("signin", f',"provider":"{prov}","email":"{socials[prov][1]}"')
            else:
                st.add("signin", f',"provider":"{prov}"')
        elif password_email:
            if rng.random() < 0.3:
                st.add("signin", f',"provider":"password","email":"{password_email}"')
            else:
                st.add("signin", ',"provider":"password"')
        elif kind == "phone":
            st.add("signin", ',"provider":"phone"')

    def deletion(self, st, apple):
        rng = self.rng
        st.days(20)
        ch = rng.random()
        channel = "in_app" if ch < 0.6 else "web" if ch < 0.8 else "email" if ch < 0.9 else "support"
        st.add("account.deletion_requested", f',"channel":"{channel}"')
        initiator = rng.random()
        initiator = ("user" if initiator < 0.6 else "admin" if initiator < 0.75
                     else "system" if initiator < 0.95 else None)
        late_revoke = False
        if apple is not None:
            r = rng.random()
            if r < 0.62:
                st.wait(1, 3)
                st.add("token.revoked", ',"provider":"apple.com","status":"succeeded"')
            elif r < 0.70:
                st.wait(1, 3)
                st.add("token.revoked", ',"provider":"apple.com"')        # status defaults to succeeded
            elif r < 0.77:
                st.wait(1, 3)
                st.add("token.revoked", ',"provider":"apple.com","status":"failed"')
            elif r < 0.85:
                pass                                                      # never revoked
            elif r < 0.89:
                late_revoke = True
            elif r < 0.92:
                st.days(3)
                st.add("apple.notification", ',"event":"consent-revoked"')
            elif r < 0.94:
                st.days(3)
                st.add("apple.notification", f',"event":"{"account-delete" if rng.random() < 0.5 else "account-deleted"}"')
                initiator = "system"
            elif r < 0.97:
                initiator = "apple"
            else:                                                         # revoked, then signs in again
                st.wait(1, 3)
                st.add("token.revoked", ',"provider":"apple.com","status":"succeeded"')
                st.days(3)
                st.add("signin", ',"provider":"apple.com","is_private_email":true' if apple["anon"]
                       else ',"provider":"apple.com","is_private_email":false')
                initiator = "system"
        st.wait(1, 5)
        fields = f',"initiator":"{initiator}"' if initiator else ""
        t_deleted = st.add("account.deleted", fields)
        if initiator == "apple":
            st.wait(1, 2)
            st.add("apple.notification", ',"event":"account-deleted"')
        stores = ("firestore", "storage", "rtdb")
        for s in stores[: rng.randrange(1, 3)]:
            st.wait(1, 4)
            st.add("data.deleted", f',"store":"{s}"')
        if late_revoke:
            # a batch job revokes after the deletion and its line is written before the request
            e = (t_deleted + 1200 * NS, Z, "token.revoked", ',"provider":"apple.com","status":"succeeded"')
            st.events.insert(max(0, len(st.events) - 4), e)

    # ----------------------------------------------------------------- export
    def user_json(self, subject, name, created_ms, last_ms, primary, apple, socials, phone, password_email):
        rng = self.rng
        new_cli = rng.random() < 0.5
        lines = ['{', f'  "localId": "{subject}",']
        email = password_email or primary
        if email:
            lines.append(f'  "email": "{email.strip()}",')
            lines.append(f'  "emailVerified": {"true" if rng.random() < 0.9 else "false"},')
        if password_email:
            lines.append(f'  "passwordHash": "{b64(rng, 64)}",')
            lines.append(f'  "salt": "{b64(rng, 12)}",')
        lines.append(f'  "displayName": "{name}",')
        lines.append(f'  "lastSignedInAt": "{last_ms}",')
        lines.append(f'  "createdAt": "{created_ms}",')
        if phone:
            lines.append(f'  "phoneNumber": "{phone}",')
        if rng.random() < 0.6:
            lines.append('  "disabled": false,')
        entries = []
        if apple is not None and new_cli:
            entries.append(("apple.com", apple["raw"], apple["email"].strip()))
        for prov, (raw, addr) in socials.items():
            if new_cli or prov in OLD_CLI_PROVIDERS:
                entries.append((prov, raw, addr))
        if not entries:
            lines.append('  "providerUserInfo": []')
        else:
            lines.append('  "providerUserInfo": [')
            for i, (prov, raw, addr) in enumerate(entries):
                lines.append('    {')
                lines.append(f'      "providerId": "{prov}",')
                lines.append(f'      "rawId": "{raw}",')
                lines.append(f'      "email": "{addr}",')
                lines.append(f'      "displayName": "{name}"')
                lines.append('    },' if i < len(entries) - 1 else '    }')
            lines.append('  ]')
        lines.append('}')
        return "\n".join(lines)

    # ----------------------------------------------------------------- main loop
    def run(self):
        rng = self.rng
        os.makedirs(self.out, exist_ok=True)
        ev = open(os.path.join(self.out, "events.jsonl"), "w", encoding="utf-8", newline="\n")
        ac = open(os.path.join(self.out, "accounts.json"), "w", encoding="utf-8", newline="\n")
        ac.write('{"users": [\n')
        with open(os.path.join(self.out, "manifest.yml"), "w", encoding="utf-8") as mf:
            mf.write("# App manifest for the generated benchmark data (docs/inputs.md).\n"
                     "apps:\n"
                     f"  - bundle_id: {APPS[0]}\n    creates_accounts: true\n    in_app_deletion: true\n"
                     "    relay_senders: [sparrownotes.app, noreply@sparrow-notes-7f3a1.firebaseapp.com]\n"
                     f"  - bundle_id: {APPS[1]}\n    creates_accounts: true\n"
                     "    relay_senders: [sparrownotes.app]\n")

        n_events, n_subjects = self.n_events, self.n_subjects
        planned = 0            # events of the stories built so far (duplicates come on top)
        dups_planned = int(n_events * 0.0005)
        story_target = n_events - dups_planned
        created = 0
        pool = []              # [subject, app, events, next index]
        pool_size = 2000
        written = 0
        out = []
        pending_dups = []      # (emit at line number, text)
        seq = 0
        dups_made = 0

        def new_subject():
            nonlocal planned, created
            left_subjects = max(1, n_subjects - created)
            left_events = story_target - planned
            mean = left_events / left_subjects
            budget = max(1, int(rng.expovariate(1.0 / max(mean, 1.0))) + 1)
            budget = min(budget, left_events)
            subject, app, events, user = self.story(budget)
            if rng.random() < 0.01:    # an exported account the log never mentions
                events = []
            if len(events) > left_events:
                events = events[:left_events]
                if user is None:       # a truncated deletion story: keep it honest, no deletion
                    events = [e for e in events if e[2] not in ("account.deleted",)]
            created += 1
            planned += len(events)
            if user is not None:
                ac.write(user if self.first_user else ",\n" + user)
                self.first_user = False
                self.exported += 1
            if events:
                pool.append([subject, app, events, 0])

        while written < n_events:
            while len(pool) < pool_size and planned < story_target:
                new_subject()
            if pending_dups and pending_dups[0][0] <= written:
                out.append(pending_dups.pop(0)[1])
                written += 1
            elif pool:
                i = rng.randrange(len(pool))
                item = pool[i]
                subject, app, events, k = item
                t, rep, typ, fields = events[k]
                seq += 1
                line = (f'{{"id":"e{base36(seq, self.id_pad)}","time":{format_time(t, rep, rng)},"subject":"{subject}",'
                        f'"type":"{typ}","app":"{app}"{fields}}}\n')
                out.append(line)
                written += 1
                if dups_made < dups_planned and rng.random() < 0.0005:
                    dups_made += 1
                    pending_dups.append((written + rng.randrange(0, 200), self.reshape(line)))
                    pending_dups.sort()
                if k + 1 < len(events):
                    item[3] = k + 1
                else:
                    pool[i] = pool[-1]
                    pool.pop()
            elif pending_dups:
                out.append(pending_dups.pop(0)[1])
                written += 1
            else:
                # stories ran short of the target: fill with sign-ins of fresh subjects
                story_target += n_events - written
                continue
            if len(out) >= 8192:
                ev.write("".join(out))
                out.clear()
        ev.write("".join(out))
        ev.close()
        ac.write("]}")
        ac.close()
        return written, created, self.exported

    def reshape(self, line):
        """An exact duplicate of `line`: as is, or with another key order and spacing."""
        rng = self.rng
        if rng.random() < 0.7:
            return line
        obj = json.loads(line)
        keys = list(obj)
        rng.shuffle(keys)
        return json.dumps({k: obj[k] for k in keys}, separators=(", ", " : "), ensure_ascii=False) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, required=True, help="number of lines in events.jsonl")
    ap.add_argument("--accounts", type=int, help="number of subjects (default events/5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="output directory (default Benchmarks/data/<events>)")
    ap.add_argument("--unique-ids", action="store_true",
                    help="event ids that are unique across subjects (by default a few ids are reused "
                         "by two subjects, see base36); the data is otherwise the same")
    args = ap.parse_args()
    accounts = args.accounts or max(1, args.events // 5)
    out = args.out or os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", str(args.events))
    lines, subjects, exported = Generator(args.seed, args.events, accounts, out, args.unique_ids).run()
    size = os.path.getsize(os.path.join(out, "events.jsonl"))
    print(f"{out}: {lines} event lines ({size / max(lines, 1):.1f} bytes/line), "
          f"{subjects} subjects, {exported} exported accounts", file=sys.stderr)


if __name__ == "__main__":
    main()
