-- DuckDB formulation of relaylint's four per-subject rules (docs/inputs.md and the README's rule table):
--   consent-before-email-link, consent-before-phone-link, consent-before-social-link,
--   token-revoked-before-deletion.
--
-- Run by duckdb_check.py, which sets two variables first:
--   events_path   LIST of JSON Lines action logs, in the order given on the command line
--   accounts_path LIST of `firebase auth:export` JSON files
-- and substitutes, in the text: the WS placeholder in trim_ws with the Unicode White_Space
-- characters, and the getvariable('findings_path') of the final COPY with the output file
-- (one JSON object {"rule","subject","event"} per line).
--
-- What it covers, and what it does not (this is a cross-check, not a second implementation):
--   * order: time to the nanosecond (RFC 3339 with Z/offset and 0-9 fraction digits, or epoch ms
--     numbers), then input order (files in order, then line order, from the insertion order of
--     the scan: preserve_insertion_order must be on);
--   * duplicates: same id and the same values of every field of the vocabulary (and of `time` as a
--     JSON value) count once; fields outside the vocabulary are not compared;
--   * anonymization and identities from the export (providerUserInfo, phoneNumber, passwordHash +
--     non-relay email, relay top-level email) at createdAt, unless an identity.linked in the log adds
--     the same identity (same provider / address / phone digits), and from events (§2.4);
--   * no validation: the input is assumed valid (relaylint rejects bad lines, this does not).

SET preserve_insertion_order = true;

CREATE OR REPLACE MACRO trim_ws(s) AS trim(s, '@WS@');
CREATE OR REPLACE MACRO email_key(s) AS lower(trim_ws(s));
CREATE OR REPLACE MACRO is_relay(s) AS
    s IS NOT NULL AND contains(s, '@')
    AND lower(trim_ws(string_split(s, '@')[-1])) IN ('privaterelay.appleid.com', 'private.icloud.com');
CREATE OR REPLACE MACRO phone_key(s) AS regexp_replace(coalesce(s, ''), '[^0-9]', '', 'g');
CREATE OR REPLACE MACRO is_true(j) AS coalesce(lower(j ->> '$') = 'true', false);
CREATE OR REPLACE MACRO is_social(p) AS p IS NOT NULL AND p NOT IN ('apple.com', 'password', 'phone', 'anonymous');
-- RFC 3339 text -> nanoseconds since the epoch (validated input assumed)
CREATE OR REPLACE MACRO tz_len(s) AS CASE WHEN upper(right(s, 1)) = 'Z' THEN 1 ELSE 6 END;
CREATE OR REPLACE MACRO rfc3339_ns(s) AS
    epoch(CAST(replace(upper(substr(s, 1, 19)), 'T', ' ') AS TIMESTAMP))::BIGINT * 1000000000
    + CASE WHEN substr(s, 20, 1) = '.'
           THEN CAST(rpad(substr(s, 21, length(s) - 20 - tz_len(s)), 9, '0') AS BIGINT)
           ELSE 0 END
    - CASE WHEN tz_len(s) = 1 THEN 0
           ELSE (CASE WHEN substr(s, -6, 1) = '-' THEN -1 ELSE 1 END)
                * (CAST(substr(s, -5, 2) AS BIGINT) * 3600 + CAST(substr(s, -2, 2) AS BIGINT) * 60)
                * 1000000000 END;

-- 1. The log, in input order (rowid follows the insertion order of the scan).
CREATE OR REPLACE TEMP TABLE raw AS
SELECT * FROM read_ndjson(getvariable('events_path'),
    columns = {id: 'VARCHAR', time: 'JSON', subject: 'VARCHAR', type: 'VARCHAR', app: 'VARCHAR',
               provider: 'VARCHAR', email: 'VARCHAR', is_private_email: 'JSON', scope: 'VARCHAR',
               kind: 'VARCHAR', value: 'VARCHAR', status: 'VARCHAR', channel: 'VARCHAR',
               initiator: 'VARCHAR', store: 'VARCHAR', event: 'VARCHAR', "to": 'VARCHAR', "from": 'VARCHAR'});

-- 2. Parsed times, duplicates dropped, only the types these rules read.
CREATE OR REPLACE TEMP TABLE ev AS
WITH parsed AS (
    SELECT rowid AS rn, *,
           CASE WHEN json_type(time) = 'VARCHAR' THEN rfc3339_ns(time ->> '$')
                ELSE CAST(round(CAST(time ->> '$' AS DECIMAL(38, 6)) * 1000000) AS BIGINT) END AS t,
           json_type(time) = 'VARCHAR' AS time_is_text
    FROM raw
    WHERE type IN ('account.created', 'signin', 'identity.linked', 'identity.unlinked',
                   'consent.granted', 'consent.withdrawn', 'token.revoked',
                   'apple.notification', 'account.deleted')
)
SELECT rn, t, id, subject, type, provider, email, is_true(is_private_email) AS ipe, scope, kind,
       value, status, initiator, event
FROM parsed
QUALIFY row_number() OVER (
    PARTITION BY id, CASE WHEN time_is_text THEN time ->> '$' ELSE 'n' || t END, subject, type, app,
                 provider, email, CAST(is_private_email AS VARCHAR), scope, kind, value, status,
                 channel, initiator, store, event, "to", "from"
    ORDER BY rn) = 1;

-- 3. The export: one row per account; its identities (§2.4 "Identities from the export").
CREATE OR REPLACE TEMP TABLE accounts AS
SELECT u.localId AS subject,
       coalesce(CAST(u.createdAt AS BIGINT) * 1000000, -9000000000000000000) AS t,
       u.email, u.passwordHash, u.phoneNumber, u.providerUserInfo AS providers
FROM (SELECT unnest(users) AS u
      FROM read_json(getvariable('accounts_path'), format = 'unstructured',
                     maximum_object_size = 4000000000,
                     columns = {users: 'STRUCT(localId VARCHAR, email VARCHAR, passwordHash VARCHAR,
                                phoneNumber VARCHAR, createdAt VARCHAR,
                                providerUserInfo STRUCT(providerId VARCHAR, rawId VARCHAR, email VARCHAR)[])[]'}));

CREATE OR REPLACE TEMP TABLE export_ids AS
WITH entries AS (
    SELECT subject, t, unnest(providers) AS p FROM accounts
), ids AS (
    SELECT subject, t,
           CASE WHEN p.providerId = 'apple.com' THEN 'apple'
                WHEN p.providerId = 'password' THEN 'email'
                WHEN p.providerId = 'phone' THEN 'phone'
                WHEN is_social(p.providerId) THEN 'social' END AS cat,
           CASE WHEN p.providerId = 'apple.com' THEN 'apple.com'
                WHEN p.providerId = 'password' THEN email_key(coalesce(p.email, p.rawId))
                WHEN p.providerId = 'phone' THEN phone_key(p.rawId)
                ELSE p.providerId END AS key,
           p.providerId = 'apple.com' AND is_relay(p.email) AS anon,
           p.providerId = 'password' AND is_relay(coalesce(p.email, p.rawId)) AS relay_password
    FROM entries
    UNION ALL
    SELECT subject, t, 'phone', phone_key(phoneNumber), false, false FROM accounts WHERE phoneNumber IS NOT NULL
    UNION ALL
    SELECT subject, t, 'email', email_key(email), false, false FROM accounts
    WHERE passwordHash IS NOT NULL AND email IS NOT NULL AND NOT is_relay(email)
    UNION ALL
    SELECT subject, t, 'apple', 'apple.com', true, false FROM accounts WHERE is_relay(email)
)
SELECT subject, any_value(t) AS t, cat, key, bool_or(anon) AS anon
FROM ids WHERE cat IS NOT NULL AND NOT relay_password
GROUP BY subject, cat, key;

-- 4. What each event does to the identities (§2.4 "Identities from events").
CREATE OR REPLACE TEMP TABLE ev_ids AS
WITH addr AS (
    SELECT *, coalesce(value, email) AS address FROM ev
    WHERE type IN ('account.created', 'signin', 'identity.linked', 'identity.unlinked')
)
-- email identities: kind email or the password provider, non-relay (no address = non-relay)
SELECT subject, t, rn, type, 'email' AS cat,
       CASE WHEN type IN ('account.created', 'signin') THEN email_key(coalesce(email, ''))
            ELSE email_key(coalesce(address, '')) END AS key
FROM addr
WHERE (provider = 'password' OR (kind = 'email' AND type LIKE 'identity.%'))
  AND NOT is_relay(CASE WHEN type IN ('account.created', 'signin') THEN email ELSE address END)
UNION ALL
SELECT subject, t, rn, type, 'phone',
       CASE WHEN type IN ('account.created', 'signin') THEN '' ELSE phone_key(value) END
FROM addr
WHERE provider = 'phone' OR (kind = 'phone' AND type LIKE 'identity.%')
UNION ALL
SELECT subject, t, rn, type, 'social', provider
FROM addr
WHERE is_social(provider) AND (kind = 'provider' OR type IN ('account.created', 'signin'));

-- Export identities that the log adds with an identity.linked exist from that event on: drop them.
CREATE OR REPLACE TEMP TABLE export_kept AS
SELECT x.* FROM export_ids x
WHERE NOT EXISTS (
    SELECT 1 FROM ev_ids e
    WHERE e.type = 'identity.linked' AND e.subject = x.subject AND e.cat = x.cat AND e.key = x.key)
  AND NOT (x.cat = 'apple' AND EXISTS (
    SELECT 1 FROM ev e WHERE e.type = 'identity.linked' AND e.provider = 'apple.com' AND e.subject = x.subject));

-- Per identity, whether it is held after each change; +1/-1 on the subject's count when that flips.
CREATE OR REPLACE TEMP TABLE deltas AS
WITH changes AS (
    SELECT subject, t, 0 AS src, 0 AS rn, cat, key, true AS held FROM export_kept WHERE cat <> 'apple'
    UNION ALL
    SELECT subject, t, 1, rn, cat, key, type <> 'identity.unlinked' FROM ev_ids
), flips AS (
    SELECT *, held::INT - coalesce(lag(held) OVER (PARTITION BY subject, cat, key ORDER BY t, src, rn), false)::INT AS d
    FROM changes
)
SELECT subject, t, src, rn,
       sum(d) FILTER (WHERE cat = 'email')::INT AS d_email,
       sum(d) FILTER (WHERE cat = 'phone')::INT AS d_phone,
       sum(d) FILTER (WHERE cat = 'social')::INT AS d_social
FROM flips GROUP BY subject, t, src, rn;

-- 5. One timeline per subject: the export (at createdAt, before events of the same instant), then events.
CREATE OR REPLACE TEMP TABLE timeline AS
WITH export_apple AS (
    SELECT subject, bool_or(anon) AS anon FROM export_ids WHERE cat = 'apple' GROUP BY subject
), export_rows AS (
    SELECT a.subject, a.t, 0 AS src, 0 AS rn, NULL::VARCHAR AS id, 'export' AS type,
           CASE WHEN k.subject IS NOT NULL THEN 'add' END AS apple_op,
           coalesce(k.anon, false) AS apple_mark,
           NULL::VARCHAR AS provider, NULL::VARCHAR AS kind, NULL::VARCHAR AS address,
           NULL::VARCHAR AS scope, NULL::VARCHAR AS status, NULL::VARCHAR AS initiator, NULL::VARCHAR AS event
    FROM accounts a LEFT JOIN (SELECT * FROM export_kept WHERE cat = 'apple') k USING (subject)
), event_rows AS (
    SELECT e.subject, e.t, 1 AS src, e.rn, e.id, e.type,
           CASE WHEN e.provider = 'apple.com' AND e.type = 'identity.linked' THEN 'add'
                WHEN e.provider = 'apple.com' AND e.type IN ('account.created', 'signin') THEN 'touch'
                WHEN e.provider = 'apple.com' AND e.type = 'identity.unlinked' THEN 'remove' END AS apple_op,
           e.ipe OR is_relay(e.email)
               OR (e.type = 'identity.linked' AND coalesce(x.anon, false)) AS apple_mark,
           e.provider, e.kind, coalesce(e.value, e.email) AS address, e.scope, e.status, e.initiator, e.event
    FROM ev e LEFT JOIN export_apple x USING (subject)
)
-- k orders a subject's timeline: time, then the export before events, then input order.
SELECT r.*, ((r.t::HUGEINT + 9223372036854775808) << 41) + (r.src::HUGEINT << 40) + r.rn AS k,
       coalesce(d.d_email, 0) AS d_email, coalesce(d.d_phone, 0) AS d_phone,
       coalesce(d.d_social, 0) AS d_social
FROM (SELECT * FROM export_rows UNION ALL SELECT * FROM event_rows) r
LEFT JOIN deltas d USING (subject, t, src, rn);

-- 6. The state before (and, for anonymization, after) every event, in one pass over each timeline:
--    "the last X before this row" is the largest k of an X row in the frame.
CREATE OR REPLACE TEMP TABLE states AS
WITH w AS (
    SELECT subject, id, type, provider, kind, address, initiator, d_email, d_phone, d_social,
        max(k) FILTER (WHERE apple_op = 'remove') OVER upto AS unlinked_upto,
        max(k) FILTER (WHERE apple_op IN ('add', 'touch') AND apple_mark) OVER upto AS marked_upto,
        max(k) FILTER (WHERE apple_op = 'remove') OVER before AS unlinked,
        max(k) FILTER (WHERE apple_op IN ('add', 'touch') AND apple_mark) OVER before AS marked,
        max(k) FILTER (WHERE apple_op IN ('add', 'touch')) OVER before AS added,
        max(k) FILTER (WHERE src = 1 AND provider = 'apple.com'
                       AND type IN ('account.created', 'signin', 'identity.linked')) OVER before AS apple_event,
        max(k) FILTER (WHERE (type = 'token.revoked' AND provider = 'apple.com' AND coalesce(status, '') <> 'failed')
                          OR (type = 'apple.notification'
                              AND event IN ('consent-revoked', 'account-delete', 'account-deleted'))) OVER before AS revoked,
        max(k) FILTER (WHERE type = 'consent.granted' AND scope = 'link.email') OVER before AS granted_email,
        max(k) FILTER (WHERE type = 'consent.withdrawn' AND scope = 'link.email') OVER before AS withdrawn_email,
        max(k) FILTER (WHERE type = 'consent.granted' AND scope = 'link.phone') OVER before AS granted_phone,
        max(k) FILTER (WHERE type = 'consent.withdrawn' AND scope = 'link.phone') OVER before AS withdrawn_phone,
        max(k) FILTER (WHERE type = 'consent.granted' AND scope = 'link.social') OVER before AS granted_social,
        max(k) FILTER (WHERE type = 'consent.withdrawn' AND scope = 'link.social') OVER before AS withdrawn_social,
        sum(d_email) OVER before AS emails,
        sum(d_phone) OVER before AS phones,
        sum(d_social) OVER before AS socials
    FROM timeline
    WINDOW upto AS (PARTITION BY subject ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
           before AS (PARTITION BY subject ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
)
SELECT subject, id, type, provider, kind, address, initiator, d_email, d_phone, d_social,
    coalesce(marked > coalesce(unlinked, 0), false) AS anon_before,
    coalesce(marked_upto > coalesce(unlinked_upto, 0), false) AS anon_after,
    coalesce(added > coalesce(unlinked, 0), false) AS apple_held_before,
    coalesce(revoked > coalesce(apple_event, 0), false) AS revoked_since_apple,
    coalesce(granted_email > coalesce(withdrawn_email, 0), false) AS consent_email,
    coalesce(granted_phone > coalesce(withdrawn_phone, 0), false) AS consent_phone,
    coalesce(granted_social > coalesce(withdrawn_social, 0), false) AS consent_social,
    coalesce(emails, 0) AS emails_before, coalesce(phones, 0) AS phones_before,
    coalesce(socials, 0) AS socials_before
FROM w
WHERE type IN ('identity.linked', 'account.deleted');

-- 7. Findings.
CREATE OR REPLACE TEMP TABLE findings AS
WITH links AS (
    SELECT *,
        -- the link adds an identity of that kind that the subject did not hold (same address,
        -- phone digits or provider = the same identity; relay addresses are no email identity)
        d_email > 0 AS adds_email,
        d_phone > 0 AS adds_phone,
        d_social > 0 AS adds_social,
        NOT anon_before AND anon_after AS anonymizes
    FROM states WHERE type = 'identity.linked'
)
SELECT 'consent-before-email-link' AS rule, subject, id AS event FROM links
WHERE ((adds_email AND anon_before) OR (anonymizes AND emails_before > 0)) AND NOT consent_email
UNION ALL
SELECT 'consent-before-phone-link', subject, id FROM links
WHERE ((adds_phone AND anon_before) OR (anonymizes AND phones_before > 0)) AND NOT consent_phone
UNION ALL
SELECT 'consent-before-social-link', subject, id FROM links
WHERE ((adds_social AND anon_before) OR (anonymizes AND socials_before > 0)) AND NOT consent_social
UNION ALL
SELECT 'token-revoked-before-deletion', subject, id FROM states
WHERE type = 'account.deleted' AND coalesce(initiator, '') <> 'apple' AND apple_held_before
  AND NOT revoked_since_apple;

COPY (SELECT rule, subject, event FROM findings ORDER BY rule, subject, event)
TO (getvariable('findings_path')) (FORMAT json);
