#!/usr/bin/env python3
"""Every entry of a smaller mnklab book (OLD) is in a bigger one (NEW) with the same value.

Reads the documented book format (see docs/solver.md: magic, version, game,
depth, entry count, 9-byte entries of key and value, CRC-32 of all before it), checks both
checksums, and prints the game, depth and entry count of each, then how many of OLD's entries
NEW lacks or gives another value, and how many NEW adds. Exit status 1 when any is missing or
differs. Usage: scripts/book/compare.py OLD NEW
"""
import struct
import sys
import zlib


def load(path):
    try:
        b = open(path, 'rb').read()
    except OSError as e:
        sys.exit(f'{path}: cannot read it: {e.strerror}')
    if b[:8] != b'MNKBOOK\0':
        sys.exit(f'{path}: not an mnklab book (no MNKBOOK header)')
    (version,) = struct.unpack_from('<I', b, 8)
    if version != 1:
        sys.exit(f'{path}: book format version {version}; this script reads version 1')
    (n,) = struct.unpack_from('<H', b, 12)
    game = b[14:14 + n].decode()
    at = 14 + n
    depth, count = struct.unpack_from('<IQ', b, at)
    at += 12
    if len(b) != at + 9 * count + 4:
        sys.exit(f'{path}: {len(b)} bytes, but {count} entries need {at + 9 * count + 4}')
    if zlib.crc32(b[:-4]) != struct.unpack('<I', b[-4:])[0]:
        sys.exit(f'{path}: damaged (its checksum does not match its contents)')
    return game, depth, {k: v for k, v in struct.iter_unpack('<Qb', b[at:at + 9 * count])}


if len(sys.argv) != 3:
    sys.exit('usage: scripts/book/compare.py OLD NEW (two mnklab book files)')
old_game, old_depth, old = load(sys.argv[1])
new_game, new_depth, new = load(sys.argv[2])
print(f'{sys.argv[1]}: {old_game} depth {old_depth}, {len(old)} entries')
print(f'{sys.argv[2]}: {new_game} depth {new_depth}, {len(new)} entries')
if old_game != new_game:
    sys.exit(f'different games: {old_game} and {new_game}')
missing = sum(1 for k in old if k not in new)
differ = sum(1 for k, v in old.items() if k in new and new[k] != v)
print(f'missing {missing}, different {differ}, new {len(new) - len(old) + missing}')
sys.exit(1 if missing or differ else 0)
