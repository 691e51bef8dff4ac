// SPIR-V binary reader (either byte order), Module::locOf and readModuleFile.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "frontend/module.h"
#include "frontend/operand_walk.h"

namespace spvhls::spirv {

namespace {

constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kMagicSwapped = 0x03022307;
constexpr size_t kMaxErrors = 50; // stop collecting after this many; the rest is usually fallout

uint32_t byteSwap(uint32_t w) {
  return (w >> 24) | ((w >> 8) & 0xff00) | ((w << 8) & 0xff0000) | (w << 24);
}

SourceLoc wordLoc(const std::string& file, size_t offset) {
  SourceLoc loc;
  loc.file = file;
  loc.wordOffset = static_cast<uint32_t>(offset);
  loc.known = true;
  return loc;
}

} // namespace

SourceLoc Module::locOf(const Instruction& inst) const {
  SourceLoc loc;
  loc.file = fileName;
  if (inst.line > 0) {
    loc.line = inst.line;
    loc.column = inst.column;
  } else {
    loc.wordOffset = inst.wordOffset;
  }
  loc.known = true;
  return loc;
}

Module readBinary(const std::vector<uint8_t>& bytes, const std::string& fileName) {
  std::vector<Diagnostic> diags;
  auto error = [&](SourceLoc loc, std::string construct, std::string message) {
    diags.push_back({Diagnostic::Severity::Error, std::move(loc), std::move(construct), std::move(message)});
  };

  if (bytes.size() % 4 != 0)
    throw DiagnosticError(wordLoc(fileName, bytes.size() / 4), "SPIR-V binary",
                          fmt::format("file size {} bytes is not a multiple of 4 (truncated file?)", bytes.size()));
  if (bytes.size() < 20)
    throw DiagnosticError(wordLoc(fileName, 0), "SPIR-V header",
                          fmt::format("file has {} bytes; expected at least the 20-byte header", bytes.size()));

  size_t n = bytes.size() / 4;
  std::vector<uint32_t> words(n);
  for (size_t i = 0; i < n; ++i)
    words[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 | uint32_t(bytes[4 * i + 2]) << 16 |
               uint32_t(bytes[4 * i + 3]) << 24;
  if (words[0] == kMagicSwapped) {
    for (auto& w : words) w = byteSwap(w);
  } else if (words[0] != kMagic) {
    throw DiagnosticError(wordLoc(fileName, 0), "SPIR-V header",
                          fmt::format("magic number {:#010x}; expected {:#010x} in either byte order", words[0], kMagic));
  }

  Module m;
  m.fileName = fileName;
  m.version = words[1];
  m.generator = words[2];
  m.bound = words[3];
  m.schema = words[4];
  uint32_t major = (m.version >> 16) & 0xff, minor = (m.version >> 8) & 0xff;
  if ((m.version & 0xff0000ff) != 0 || major != 1 || minor > 6)
    error(wordLoc(fileName, 1), "SPIR-V header",
          fmt::format("version word {:#010x} is not SPIR-V 1.0 to 1.6", m.version));
  if (m.bound == 0) error(wordLoc(fileName, 3), "SPIR-V header", "id bound is 0; expected at least 1");
  if (m.schema != 0) error(wordLoc(fileName, 4), "SPIR-V header", fmt::format("schema is {}; expected 0", m.schema));

  detail::TypeTracker types;
  m.insts.reserve(n / 4); // a typical instruction has about four words
  size_t pos = 5;
  while (pos < n && diags.size() < kMaxErrors) {
    uint32_t first = words[pos];
    uint32_t wc = first >> 16;
    uint16_t opcode = first & 0xffff;
    const SourceLoc loc = wordLoc(fileName, pos);
    if (wc == 0) {
      error(loc, grammar::opName(opcode), "word count is 0; expected at least 1 (cannot find the next instruction)");
      break;
    }
    if (pos + wc > n) {
      error(loc, grammar::opName(opcode),
            fmt::format("word count {} runs past the end of the module ({} words left)", wc, n - pos));
      break;
    }
    const auto* info = grammar::findInstruction(opcode);
    if (!info) {
      error(loc, fmt::format("opcode {}", opcode), "unknown opcode; expected an opcode of the SPIR-V grammar");
      pos += wc;
      continue;
    }
    std::span<const uint32_t> opWords(words.data() + pos + 1, wc - 1);
    detail::WordCursor cur(opWords, loc, info->name);
    try {
      detail::walkOperands(*info, cur, types);
    } catch (const DiagnosticError& e) {
      diags.insert(diags.end(), e.diagnostics().begin(), e.diagnostics().end());
      pos += wc;
      continue;
    }
    bool idsOk = true;
    for (const auto& use : cur.ids) {
      uint32_t v = opWords[use.index];
      if (v == 0 || v >= m.bound) {
        error(loc, info->name,
              fmt::format("id {} in operand word {} is out of range; expected 1 to {} (bound {})", v, use.index + 1,
                          m.bound - 1, m.bound));
        idsOk = false;
      }
    }
    if (!idsOk) {
      pos += wc;
      continue;
    }
    Instruction inst;
    inst.opcode = opcode;
    inst.wordOffset = static_cast<uint32_t>(pos);
    size_t k = 0;
    if (info->hasResultType) inst.resultType = opWords[k++];
    if (info->hasResult) inst.resultId = opWords[k++];
    inst.operands.assign(opWords.begin() + k, opWords.end());
    types.note(inst);
    m.insts.push_back(std::move(inst));
    pos += wc;
  }
  if (!diags.empty()) throw DiagnosticError(std::move(diags));
  return m;
}

Module readModuleFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw DiagnosticError(SourceLoc{path}, "input file", "is a directory; expected a .spv or .spvasm file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DiagnosticError(SourceLoc{path}, "input file", "cannot open the file for reading");
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  std::vector<uint8_t> bytes;
  if (size > 0) {
    bytes.resize(static_cast<size_t>(size));
    in.read(reinterpret_cast<char*>(bytes.data()), size);
    bytes.resize(static_cast<size_t>(in.gcount()));
  } else { // not seekable (a pipe): read as a stream
    in.clear();
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (bytes.size() >= 4) {
    uint32_t w = uint32_t(bytes[0]) | uint32_t(bytes[1]) << 8 | uint32_t(bytes[2]) << 16 | uint32_t(bytes[3]) << 24;
    if (w == kMagic || w == kMagicSwapped) return readBinary(bytes, path);
  }
  return readText(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
}

} // namespace spvhls::spirv
