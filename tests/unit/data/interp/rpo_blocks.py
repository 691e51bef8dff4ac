#!/usr/bin/env python3
"""Reorders the basic blocks of every function of an LLVM IR text file (stdin -> stdout) into reverse
post-order, so that every block comes after its dominators.

llvm-spirv-15 writes blocks in LLVM's layout order, and after -O2 that order sometimes puts a block
before one that dominates it, which SPIR-V forbids (spirv-val: "ID ... has not been defined"). The
input must have named values only (opt -passes=instnamer): reordering would break the numbering of
unnamed ones. Blocks are found by their label lines, successors by `label %name` operands (only
terminators have those)."""
import re
import sys

LABEL_REF = re.compile(r'label %([-\w.$]+|"[^"]*")')
BLOCK_START = re.compile(r'^([-\w.$]+|"[^"]*"):')


def reorder(body):
    blocks, names = [], []
    for line in body:
        m = BLOCK_START.match(line)
        if m or not blocks:
            blocks.append([])
            names.append(m.group(1) if m else None)
        blocks[-1].append(line)
    index = {n: i for i, n in enumerate(names)}
    succ = [[index[s] for s in LABEL_REF.findall(''.join(b))] for b in blocks]
    seen, post, stack = {0}, [], [(0, iter(succ[0]))]
    while stack:  # iterative depth-first search from the entry block
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            post.append(node)
            stack.pop()
        elif nxt not in seen:
            seen.add(nxt)
            stack.append((nxt, iter(succ[nxt])))
    order = post[::-1] + [i for i in range(len(blocks)) if i not in seen]
    return [line for i in order for line in blocks[i]]


out, body = [], None
for line in sys.stdin:
    if body is None:
        out.append(line)
        if line.startswith('define ') and line.rstrip().endswith('{'):
            body = []
    elif line.rstrip() == '}':
        out.extend(reorder(body))
        out.append(line)
        body = None
    else:
        body.append(line)
sys.stdout.write(''.join(out))
