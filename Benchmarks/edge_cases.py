#!/usr/bin/env python3
"""Run the contract's edge cases through relaylint and DuckDB (rules.sql) and check both.

Usage:
  python3 Benchmarks/edge_cases.py [--relaylint PATH]

Two sets of small inputs, each with the findings docs/inputs.md and the README's rule table call for:
  * the `examples:` of the four rules' YAML files in Rules/ (needs PyYAML; skipped without it);
  * hand-written cases of §2.3/§2.4 (duplicates, time formats, relay domains, export and log
    together, file order, ...).
For each it prints whether relaylint (built-in pack, other rules disabled) and duckdb_check.py
find exactly the expected (rule, event) pairs. Exit code 1 when a tool misses a case.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RULES = ['consent-before-email-link', 'consent-before-phone-link', 'consent-before-social-link',
         'token-revoked-before-deletion']


def ev(id, time, type, subject='u1', **kw):
    d = {'id': id, 'time': time, 'subject': subject, 'type': type}
    d.update(kw)
    return d


def created(t='2026-01-01T09:00:00Z', **kw):
    return ev('c0', t, 'account.created', provider='apple.com', email=A, is_private_email=True, **kw)


cases = []


def case(name, events, expect, accounts=None, files=None, raw=None):
    cases.append((name, events, expect, accounts or [], files, raw))


A = 'a1@privaterelay.appleid.com'
def ev(id, time, type, subject='u1', **kw):
    d = {'id': id, 'time': time, 'subject': subject, 'type': type}; d.update(kw); return d

case('dup: number spelling of time', None, {('consent-before-email-link','x1')}, raw=[
    json.dumps(created()),
    '{"id":"x1","time":1767261600000,"subject":"u1","type":"identity.linked","kind":"email","value":"j@example.com"}',
    '{"id":"x1","time":1767261600000.0,"subject":"u1","type":"identity.linked","kind":"email","value":"j@example.com"}',
    '{"id":"x1","time":1.7672616e12,"subject":"u1","type":"identity.linked","kind":"email","value":"j@example.com"}'])
case('same id, other content: both kept', [created(), ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='email',value='j@example.com'),
     ev('x1','2026-01-03T00:00:00Z','identity.linked',kind='phone',value='+15555550100')],
     {('consent-before-email-link','x1'),('consent-before-phone-link','x1')})
case('relay domain + trailing NBSP / U+3000 is relay', [ev('c0','2026-01-01T00:00:00Z','signin',provider='apple.com',email='a@privaterelay.appleid.com\u00a0\u3000'),
     ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='email',value='j@example.com')], {('consent-before-email-link','x1')})
case('U+200B is not whitespace: not relay', [ev('c0','2026-01-01T00:00:00Z','signin',provider='apple.com',email='a@privaterelay.appleid.com\u200b'),
     ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='email',value='j@example.com')], set())
case('trailing dot: not relay', [ev('c0','2026-01-01T00:00:00Z','signin',provider='apple.com',email='a@privaterelay.appleid.com.'),
     ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='email',value='j@example.com')], set())
case('is_private_email "True" string', [ev('c0','2026-01-01T00:00:00Z','signin',provider='apple.com',is_private_email='True'),
     ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='email',value='j@example.com')], {('consent-before-email-link','x1')})
case('kind email link without address', [created(), ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='email')], {('consent-before-email-link','x1')})
case('export createdAt at the same instant as the link', [ev('x1','2026-01-01T10:00:00Z','identity.linked',kind='phone',value='+15555550100')],
     {('consent-before-phone-link','x1')}, accounts=[{'localId':'u1','email':A,'createdAt':'1767261600000','providerUserInfo':[]}])
case('epoch ms fraction: link before consent', [created(), ev('g','2026-01-01T09:30:00Z','consent.granted',scope='link.email'),
     ev('w',1767261600000.5,'consent.withdrawn',scope='link.email'), ev('x1','2026-01-01T10:00:00.0004Z','identity.linked',kind='email',value='j@example.com')], set())
case('epoch ms fraction: link after withdrawal', [created(), ev('g','2026-01-01T09:30:00Z','consent.granted',scope='link.email'),
     ev('w',1767261600000.5,'consent.withdrawn',scope='link.email'), ev('x1','2026-01-01T10:00:00.000500001Z','identity.linked',kind='email',value='j@example.com')], {('consent-before-email-link','x1')})
case('oidc / gc.apple.com are social, anonymous is not', [created(), ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='provider',provider='oidc.acme'),
     ev('x2','2026-01-03T00:00:00Z','identity.linked',kind='provider',provider='gc.apple.com'), ev('x3','2026-01-04T00:00:00Z','identity.linked',kind='provider',provider='anonymous')],
     {('consent-before-social-link','x1'),('consent-before-social-link','x2')})
case('anonymized by a signin, then a phone link', [ev('c0','2026-01-01T00:00:00Z','account.created',provider='password',email='j@example.com'),
     ev('s1','2026-01-02T00:00:00Z','signin',provider='apple.com',email='q@private.icloud.com'), ev('x1','2026-01-03T00:00:00Z','identity.linked',kind='phone',value='+15555550100')],
     {('consent-before-phone-link','x1')})
case('token: no initiator, revoke without provider', [created(), ev('r','2026-01-02T00:00:00Z','token.revoked',status='succeeded'), ev('d','2026-01-03T00:00:00Z','account.deleted')],
     {('token-revoked-before-deletion','d')})
case('token: notification, then Apple sign-in again', [created(), ev('n','2026-01-02T00:00:00Z','apple.notification',event='account-deleted'),
     ev('s','2026-01-03T00:00:00Z','signin',provider='apple.com'), ev('d','2026-01-04T00:00:00Z','account.deleted',initiator='system')], {('token-revoked-before-deletion','d')})
case('unlink, then re-sign-in with relay: anonymized again', [created(), ev('u','2026-01-02T00:00:00Z','identity.unlinked',kind='provider',provider='apple.com'),
     ev('s','2026-01-03T00:00:00Z','signin',provider='apple.com',is_private_email=True), ev('x1','2026-01-04T00:00:00Z','identity.linked',kind='email',value='j@example.com')],
     {('consent-before-email-link','x1')})
case('offset -00:00 equals Z; consent first in input order', [created(), ev('g','2026-01-02T00:00:00-00:00','consent.granted',scope='link.email'),
     ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='email',value='j@example.com')], set())
case('lowercase t/z', [created('2026-01-01t09:00:00z'), ev('x1','2026-01-02t00:00:00.5z','identity.linked',kind='email',value='j@example.com')], {('consent-before-email-link','x1')})
case('two files, equal instant: link file first', None, {('consent-before-email-link','x1')}, files=[
     [created(), ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='email',value='j@example.com')],
     [ev('g','2026-01-02T00:00:00Z','consent.granted',scope='link.email')]])
case('two files, equal instant: consent file first', None, set(), files=[
     [ev('g','2026-01-02T00:00:00Z','consent.granted',scope='link.email')],
     [created(), ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='email',value='j@example.com')]])
case('kind provider + provider password is an email identity', [created(), ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='provider',provider='password',email='j@example.com')],
     {('consent-before-email-link','x1')})
case('relinking an email already held', [created(), ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='email',value='j@example.com'),
     ev('x2','2026-01-03T00:00:00Z','identity.linked',kind='email',value=' J@Example.com')], {('consent-before-email-link','x1')})
case('export apple entry relay, log links it unmarked (other way round)', [ev('c0','2026-01-01T00:00:00Z','account.created',provider='password',email='j@example.com'),
     ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='provider',provider='apple.com',value='001.x')], {('consent-before-email-link','x1')},
     accounts=[{'localId':'u1','email':'j@example.com','passwordHash':'aGFzaA==','createdAt':'1767225500000','providerUserInfo':[{'providerId':'apple.com','rawId':'001.x','email':A}]}])
case('export: passwordHash + relay email is no email identity', [ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='phone',value='+15555550100')],
     {('consent-before-phone-link','x1')}, accounts=[{'localId':'u1','email':A,'passwordHash':'aGFzaA==','createdAt':'1767225500000','providerUserInfo':[]}])
case('createdAt absent: export identity from the start', [ev('x1','2025-01-02T00:00:00Z','identity.linked',kind='phone',value='+15555550100')],
     {('consent-before-phone-link','x1')}, accounts=[{'localId':'u1','email':A,'providerUserInfo':[]}])
case('export phone, log links same number in other format: phone exists from the link', [ev('x1','2026-01-02T00:00:00Z','identity.linked',kind='provider',provider='apple.com',is_private_email=True)],
     {('consent-before-phone-link','x1')}, accounts=[{'localId':'u1','phoneNumber':'+15555550100','createdAt':'1767225500000','providerUserInfo':[{'providerId':'apple.com','rawId':'1','email':A}]}])
case('signin with a second password address, unlink the first, then Apple link', [ev('c0','2026-01-01T00:00:00Z','account.created',provider='password',email='j@example.com'),
     ev('s','2026-01-02T00:00:00Z','signin',provider='password',email='k@example.com'),
     ev('u','2026-01-03T00:00:00Z','identity.unlinked',kind='email',provider='password',value='j@example.com'),
     ev('x1','2026-01-04T00:00:00Z','identity.linked',provider='apple.com',email=A)], {('consent-before-email-link','x1')})
case('deletion does not reset: link after deletion', [created(), ev('r','2026-01-02T00:00:00Z','token.revoked',provider='apple.com'), ev('d','2026-01-03T00:00:00Z','account.deleted'),
     ev('x1','2026-01-04T00:00:00Z','identity.linked',kind='email',value='j@example.com')], {('consent-before-email-link','x1')})


def yaml_examples():
    try:
        import yaml
    except ImportError:
        print("PyYAML is not installed: the rules' own examples are skipped")
        return
    for rule in RULES:
        with open(os.path.join(ROOT, 'Rules', rule + '.yml'), encoding='utf-8') as f:
            for x in yaml.safe_load(f).get('examples', []):
                events = [dict({'subject': 'u1'}, **e) for e in x.get('events', [])]
                case(f'{rule} example: {x["name"]}', events,
                     {(rule, e) for e in x.get('fires', [])}, accounts=x.get('accounts'))


def run_case(tmp, relaylint, config, name, events, expect, accounts, files, raw):
    paths = []
    if raw is not None:
        paths = [os.path.join(tmp, 'e0.jsonl')]
        with open(paths[0], 'w', encoding='utf-8') as f:
            f.write('\n'.join(raw) + '\n')
    else:
        for j, evs in enumerate(files or [events]):
            paths.append(os.path.join(tmp, f'e{j}.jsonl'))
            with open(paths[-1], 'w', encoding='utf-8') as f:
                for e in evs:
                    f.write(json.dumps(e, ensure_ascii=False, default=str) + '\n')
    acc = os.path.join(tmp, 'a.json')
    with open(acc, 'w', encoding='utf-8') as f:
        json.dump({'users': accounts}, f, default=str)
    events_args = [a for p in paths for a in ('--events', p)]
    report = os.path.join(tmp, 'r.json')
    p = subprocess.run([relaylint, 'check', '--config', config, '--format', 'json', '--output', report,
                        '--accounts', acc] + events_args, capture_output=True, text=True, cwd=tmp)
    if p.returncode == 2:
        got_rl = 'error: ' + p.stderr.strip()[:300]
    else:
        with open(report, encoding='utf-8') as f:
            got_rl = sorted((x['rule'], x['event']) for x in json.load(f)['findings'] if x['rule'] in RULES)
    found = os.path.join(tmp, 'd.jsonl')
    subprocess.run([sys.executable, os.path.join(HERE, 'duckdb_check.py'), '--accounts', acc,
                    '--output', found] + events_args, capture_output=True, check=True)
    with open(found, encoding='utf-8') as f:
        got_dk = sorted((o['rule'], o['event']) for o in map(json.loads, filter(str.strip, f)))
    return got_rl, got_dk


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--relaylint', default=os.environ.get('RELAYLINT', os.path.join(ROOT, '.build-static/release/relaylint')))
    args = ap.parse_args()
    yaml_examples()
    tmp = tempfile.mkdtemp(prefix='relaylint-edge-')
    config = os.path.join(tmp, 'four-rules.yml')
    listed = subprocess.run([args.relaylint, 'rules', 'list'], capture_output=True, text=True, check=True).stdout
    with open(config, 'w') as f:
        f.write('rules:\n' + ''.join(f'  {line.split()[0]}: {{enabled: false}}\n'
                                      for line in listed.splitlines() if line.split() and line.split()[0] not in RULES))
    bad_rl = bad_dk = 0
    for i, (name, events, expect, accounts, files, raw) in enumerate(cases):
        d = os.path.join(tmp, f'c{i}')
        os.makedirs(d)
        got_rl, got_dk = run_case(d, args.relaylint, config, name, events, expect, accounts, files, raw)
        exp = sorted(expect)
        bad_rl += got_rl != exp
        bad_dk += got_dk != exp
        flag = ('relaylint ok ' if got_rl == exp else 'relaylint BAD') + '  ' + ('duckdb ok ' if got_dk == exp else 'duckdb BAD')
        print(f'{flag}  [{i}] {name}')
        if got_rl != exp or got_dk != exp:
            print(f'      expected  {exp}\n      relaylint {got_rl}\n      duckdb    {got_dk}')
    print(f'{len(cases)} cases: relaylint misses {bad_rl}, duckdb misses {bad_dk}')
    return 1 if bad_rl or bad_dk else 0


if __name__ == '__main__':
    sys.exit(main())
