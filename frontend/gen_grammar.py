#!/usr/bin/env python3
"""Generates the SPIR-V grammar tables of the spvhls frontend.

Inputs: the Khronos core grammar and OpenCL.std grammar (Debian's spirv-headers), and our supplement
(frontend/grammar_supplement.json) with what that grammar lacks or gets wrong. Optionally the SPIR-V
registry (spir-v.xml, next to the unified1 directory) for generator tool names.

Outputs (into --out-dir):
  opcodes.h           enum class Op, enum class OperandKind, and namespace spv::<Kind> constants
  grammar_tables.cpp  the tables declared in frontend/grammar.h
"""
import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

CPP_KEYWORDS = {"and", "or", "not", "xor", "bool", "char", "int", "float", "double", "void", "const",
                "inline", "default", "switch", "case", "return", "true", "false", "delete", "new"}


def fail(msg):
    sys.stderr.write(f"gen_grammar.py: error: {msg}\n")
    sys.exit(1)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"cannot read {path}: {e}")


def to_int(v):
    return int(v, 0) if isinstance(v, str) else int(v)


def merge_supplement(core, sup):
    """Adds missing instructions, operand kinds and enumerants; applies enumerant overrides."""
    names = {i["opname"] for i in core["instructions"]}
    for inst in sup.get("instructions", []):
        if inst["opname"] not in names:
            core["instructions"].append(inst)
    byname = {i["opname"]: i for i in core["instructions"]}
    for name, fields in sup.get("instruction_overrides", {}).items():
        if name not in byname:
            fail(f"supplement overrides unknown instruction {name}")
        byname[name].update(fields)
    kinds = {k["kind"]: k for k in core["operand_kinds"]}
    for k in sup.get("operand_kinds", []):
        if k["kind"] not in kinds:
            core["operand_kinds"].append(k)
            kinds[k["kind"]] = k
    for kind, ens in sup.get("enumerants", {}).items():
        if kind not in kinds:
            fail(f"supplement adds enumerants to unknown operand kind {kind}")
        have = {e["enumerant"] for e in kinds[kind]["enumerants"]}
        for e in ens:
            if e["enumerant"] not in have:
                kinds[kind]["enumerants"].append(e)
    for kind, overrides in sup.get("enumerant_overrides", {}).items():
        byname = {e["enumerant"]: e for e in kinds[kind]["enumerants"]}
        for name, fields in overrides.items():
            if name not in byname:
                fail(f"supplement overrides unknown enumerant {kind}.{name}")
            byname[name].update(fields)


def add_altera_aliases(core, fpga_exts):
    """FPGA entries spelled ...INTEL are also accepted as ...ALTERA (same number, marked alias)."""
    kinds = {k["kind"]: k for k in core["operand_kinds"]}
    cap_exts = {e["enumerant"]: set(e.get("extensions", [])) for e in kinds["Capability"]["enumerants"]}

    def is_fpga(entry):
        exts = set(entry.get("extensions", []))
        for cap in entry.get("capabilities", []):
            exts |= cap_exts.get(cap, set())
        return bool(exts & fpga_exts)

    def alias(name):
        return name[: -len("INTEL")] + "ALTERA"

    extra = []
    for inst in core["instructions"]:
        if inst["opname"].endswith("INTEL") and is_fpga(inst):
            a = dict(inst, opname=alias(inst["opname"]), alias=True)
            extra.append(a)
    core["instructions"].extend(extra)
    for k in core["operand_kinds"]:
        more = []
        for e in k.get("enumerants", []):
            if e["enumerant"].endswith("INTEL") and is_fpga(e):
                more.append(dict(e, enumerant=alias(e["enumerant"]), alias=True))
        k.get("enumerants", []).extend(more)


def mark_value_aliases(core):
    """The first entry with a given number is canonical (used for printing); later ones are aliases."""
    seen = set()
    for inst in core["instructions"]:
        if inst["opcode"] in seen:
            inst["alias"] = True
        seen.add(inst["opcode"])
    for k in core["operand_kinds"]:
        seen = set()
        # Written names first: ALTERA aliases were appended after their INTEL originals.
        for e in k.get("enumerants", []):
            v = to_int(e["value"])
            if v in seen:
                e["alias"] = True
            seen.add(v)


def ident(kind, name):
    """A C++ identifier for an enumerant: prefix names that start with a digit or are keywords."""
    if re.match(r"^[0-9]", name) or name in CPP_KEYWORDS:
        return kind + name
    return name


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def clean_name(n):
    if n is None:
        return ""
    n = n.replace("\n", " ").strip()
    return n[1:-1] if len(n) >= 2 and n[0] == "'" and n[-1] == "'" else n


QUANT = {None: "One", "?": "Optional", "*": "Variadic", "counted": "Counted"}


def read_tools(core_path):
    """Generator tool names from spir-v.xml, as spirv-dis prints them ("Vendor Tool")."""
    xml = os.path.join(os.path.dirname(os.path.abspath(core_path)), os.pardir, "spir-v.xml")
    tools = []
    if not os.path.exists(xml):
        return tools
    root = ET.parse(xml).getroot()
    for node in root.iter("id"):
        if node.get("value") is None or node.get("vendor") is None:
            continue
        name = node.get("vendor") + (" " + node.get("tool") if node.get("tool") else "")
        tools.append((int(node.get("value")), name))
    return tools


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--core", required=True)
    ap.add_argument("--opencl", required=True)
    ap.add_argument("--supplement", required=True)
    ap.add_argument("--out-dir", required=True)
    a = ap.parse_args()

    core = load(a.core)
    ocl = load(a.opencl)
    sup = load(a.supplement)
    merge_supplement(core, sup)
    mark_value_aliases(core)
    add_altera_aliases(core, set(sup.get("fpga_extensions", [])))

    kinds = core["operand_kinds"]
    kind_index = {k["kind"]: i for i, k in enumerate(kinds)}

    operands = []  # (kind, quantifier, name)

    def add_operands(lst):
        first = len(operands)
        for o in lst or []:
            if o["kind"] not in kind_index:
                fail(f"unknown operand kind {o['kind']}")
            q = o.get("quantifier")
            if q not in QUANT:
                fail(f"unknown quantifier {q}")
            operands.append((o["kind"], QUANT[q], clean_name(o.get("name"))))
        return first, len(operands) - first

    insts = []
    for i in core["instructions"]:
        first, count = add_operands(i.get("operands"))
        kinds_of = [o["kind"] for o in i.get("operands", [])]
        insts.append((i["opname"], i["opcode"], first, count, bool(i.get("alias")),
                      "IdResultType" in kinds_of, "IdResult" in kinds_of, i.get("class", "")))

    enumerants = []  # (name, value, firstParam, paramCount, alias)
    kind_rows = []   # (name, category, firstEnumerant, count, pairFirst, pairSecond)
    for k in kinds:
        first = len(enumerants)
        for e in k.get("enumerants", []):
            pf, pc = add_operands(e.get("parameters"))
            enumerants.append((e["enumerant"], to_int(e["value"]), pf, pc, bool(e.get("alias"))))
        bases = k.get("bases", ["IdRef", "IdRef"])
        kind_rows.append((k["kind"], k["category"], first, len(enumerants) - first, bases[0], bases[1]))

    ext_insts = []
    for i in ocl["instructions"]:
        first, count = add_operands(i.get("operands"))
        ext_insts.append((i["opname"], i["opcode"], first, count))

    tools = read_tools(a.core)
    os.makedirs(a.out_dir, exist_ok=True)
    write_header(os.path.join(a.out_dir, "opcodes.h"), core, kinds, ocl)
    write_tables(os.path.join(a.out_dir, "grammar_tables.cpp"), insts, operands, enumerants, kind_rows,
                 ext_insts, tools)


def write_header(path, core, kinds, ocl):
    out = []
    w = out.append
    w("// Generated by frontend/gen_grammar.py from the Khronos SPIR-V grammar plus")
    w("// frontend/grammar_supplement.json. Do not edit.")
    w("//")
    w("// Conventions:")
    w("//  * spvhls::spirv::Op            every opcode named as in the grammar (Op::OpIAdd); aliases")
    w("//                                 (e.g. ...KHR, ...ALTERA spellings of FPGA ...INTEL names) have the")
    w("//                                 same value as the name they alias.")
    w("//  * spvhls::spirv::OperandKind   one value per grammar operand kind (for the tables in grammar.h).")
    w("//  * spvhls::spirv::spv::<Kind>   for every enumerated operand kind, a namespace of uint32_t")
    w("//                                 constants named as in the grammar, e.g. spv::StorageClass::")
    w("//                                 CrossWorkgroup, spv::Decoration::Alignment, spv::LoopControl::")
    w("//                                 InitiationIntervalINTEL (BitEnum constants are the mask bit).")
    w("//                                 Names starting with a digit get the kind as prefix (spv::Dim::Dim1D).")
    w("//  * spvhls::spirv::spv::OpenCLStd the OpenCL.std extended instruction numbers, first letter")
    w("//                                 capitalised as in Khronos' OpenCL.std.h (OpenCLStd::Sqrt, ::Fmax).")
    w("#pragma once")
    w("")
    w("#include <cstdint>")
    w("")
    w("namespace spvhls::spirv {")
    w("")
    w("enum class Op : uint16_t {")
    for i in core["instructions"]:
        w(f"  {i['opname']} = {i['opcode']},")
    w("};")
    w("")
    w("enum class OperandKind : uint16_t {")
    for k in kinds:
        w(f"  {k['kind']},")
    w("};")
    w("")
    w("namespace spv {")
    for k in kinds:
        if "enumerants" not in k:
            continue
        w(f"namespace {k['kind']} {{")
        seen = set()
        for e in k["enumerants"]:
            n = ident(k["kind"], e["enumerant"])
            if n in seen:
                continue
            seen.add(n)
            w(f"inline constexpr uint32_t {n} = {to_int(e['value'])}u;")
        w(f"}} // namespace {k['kind']}")
    w("namespace OpenCLStd {")
    for i in ocl["instructions"]:
        n = i["opname"][0].upper() + i["opname"][1:]
        w(f"inline constexpr uint32_t {n} = {i['opcode']}u;")
    w("} // namespace OpenCLStd")
    w("} // namespace spv")
    w("")
    w("} // namespace spvhls::spirv")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def write_tables(path, insts, operands, enumerants, kind_rows, ext_insts, tools):
    out = []
    w = out.append
    w("// Generated by frontend/gen_grammar.py. Do not edit.")
    w('#include "frontend/grammar.h"')
    w("")
    w("namespace spvhls::spirv::grammar {")
    w("")
    w("const OperandDesc kOperands[] = {")
    for kind, q, name in operands:
        w(f"  {{OperandKind::{kind}, Quantifier::{q}, {cstr(name)}}},")
    w("  {OperandKind::IdRef, Quantifier::One, \"\"},  // keeps the array non-empty")
    w("};")
    w("")
    w("const InstructionInfo kInstructions[] = {")
    for name, opcode, first, count, alias, has_type, has_result, klass in insts:
        w(f"  {{{cstr(name)}, {opcode}, {first}, {count}, {str(alias).lower()}, "
          f"{str(has_type).lower()}, {str(has_result).lower()}, {cstr(klass)}}},")
    w("};")
    w(f"const size_t kInstructionCount = {len(insts)};")
    w("")
    w("const EnumerantInfo kEnumerants[] = {")
    for name, value, first, count, alias in enumerants:
        w(f"  {{{cstr(name)}, {value}u, {first}, {count}, {str(alias).lower()}}},")
    w("};")
    w("")
    w("const OperandKindInfo kOperandKinds[] = {")
    for name, cat, first, count, b0, b1 in kind_rows:
        w(f"  {{{cstr(name)}, KindCategory::{cat}, {first}, {count}, OperandKind::{b0}, OperandKind::{b1}}},")
    w("};")
    w(f"const size_t kOperandKindCount = {len(kind_rows)};")
    w("")
    w("const ExtInstInfo kOpenCLStd[] = {")
    for name, number, first, count in ext_insts:
        w(f"  {{{cstr(name)}, {number}u, {first}, {count}}},")
    w("};")
    w(f"const size_t kOpenCLStdCount = {len(ext_insts)};")
    w("")
    w("const GeneratorTool kGeneratorTools[] = {")
    for value, name in tools:
        w(f"  {{{value}u, {cstr(name)}}},")
    w("  {0xffffffffu, \"\"},  // sentinel")
    w("};")
    w(f"const size_t kGeneratorToolCount = {len(tools)};")
    w("")
    w("} // namespace spvhls::spirv::grammar")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
