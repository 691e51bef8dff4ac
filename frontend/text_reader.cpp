// Reader for the spirv-dis text syntax:
//   %name = OpX %type %a 42 "str" Enum|Enum2     ; comment
// Ids are numbered like `spirv-as --preserve-numeric-ids`: numeric ids (%12) keep their number; a named
// id gets the lowest number that no numeric id anywhere in the text and no earlier name has, in order
// of first use (a result id counts after its result type, as spirv-as encodes them). An instruction
// ends at the end of its line, unless the next line does not start a new instruction (an Op name or
// "%id ="), in which case it continues there.
//
// Two passes over the text, neither of which keeps the tokens: the first finds the numeric ids (and
// reports lexical errors), the second lexes and encodes one instruction at a time.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <string_view>
#include <unordered_map>

#include "frontend/literals.h"
#include "frontend/module.h"
#include "frontend/operand_walk.h"

namespace spvhls::spirv {

namespace {

using grammar::OperandDesc;

constexpr uint32_t kMaxId = 0x3fffff; // the largest numeric id accepted (SPIR-V's universal limit)

struct Token {
  enum class Kind : uint8_t { Id, Equals, String, Word, End };
  static constexpr uint32_t kMaxColumn = (1u << 28) - 1; // longer lines report this column
  // Id: without '%'; String: unescaped contents. Views into the source text or the lexer's string store.
  std::string_view text;
  uint32_t line = 0, column = 0;
  Kind kind = Kind::End;
};

std::string describe(const Token& t) {
  switch (t.kind) {
  case Token::Kind::Id: return fmt::format("'%{}'", t.text);
  case Token::Kind::Equals: return "'='";
  case Token::Kind::String: return fmt::format("string \"{}\"", t.text);
  case Token::Kind::Word: return fmt::format("'{}'", t.text);
  case Token::Kind::End: return "end of file";
  }
  return "?";
}

struct Header {
  std::optional<uint32_t> version, generator, bound, schema;
};

// Splits the text into tokens, one per call. Lexical errors (an unterminated string, '%' without a
// name) are added to `diags` and the bad token is skipped.
class Lexer {
public:
  Lexer(std::string_view text, const std::string& file, std::vector<Diagnostic>& diags)
      : s_(text), file_(file), diags_(diags) {}

  // Lexes the next token into `t`: End at the end of the text (again on every further call). In place,
  // not returned: copying a small struct just written field by field stalls the CPU (store forwarding),
  // and this runs for every token, twice.
  void next(Token& t) {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\n') {
        ++line_;
        lineStart_ = ++i_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++i_;
      } else if (c == ';') {
        size_t end = s_.find('\n', i_);
        if (end == std::string_view::npos) end = s_.size();
        if (!sawToken_) headerComment(s_.substr(i_ + 1, end - i_ - 1));
        i_ = end;
      } else if (c == '=') {
        start(t, Token::Kind::Equals);
        t.text = s_.substr(i_++, 1);
        sawToken_ = true;
        return;
      } else if (c == '"') {
        if (lexString(t)) {
          sawToken_ = true;
          return;
        }
      } else {
        start(t, c == '%' ? Token::Kind::Id : Token::Kind::Word);
        size_t first = i_ + (c == '%' ? 1 : 0), end = first; // a local index: kept in a register
        while (end < s_.size() && !isDelimiter(s_[end])) ++end;
        i_ = end;
        t.text = s_.substr(first, end - first);
        if (t.kind != Token::Kind::Id || !t.text.empty()) {
          sawToken_ = true;
          return;
        }
        error(t, "'%' must be followed by an id name or number");
      }
    }
    start(t, Token::Kind::End);
    t.text = {};
  }

  // The "; Version:" ... comments before the first token.
  const Header& header() const { return header_; }

private:
  static bool isDelimiter(char c) { return kDelimiters[static_cast<unsigned char>(c)]; }

  // A table: the word loop is the hottest loop of the reader.
  static constexpr std::array<bool, 256> kDelimiters = [] {
    std::array<bool, 256> d{};
    for (char c : std::string_view(" \t\r\n;\"=")) d[static_cast<unsigned char>(c)] = true;
    return d;
  }();

  // A token of `kind` at the current position; the caller sets its text.
  void start(Token& t, Token::Kind kind) const {
    t.kind = kind;
    t.line = line_;
    t.column = static_cast<uint32_t>(std::min<size_t>(i_ - lineStart_ + 1, Token::kMaxColumn));
  }

  // False (and an error) for an unterminated string.
  bool lexString(Token& t) {
    start(t, Token::Kind::String);
    size_t first = ++i_;
    bool escaped = false; // \" and \\ escape a char; only then is the text copied
    while (i_ < s_.size() && s_[i_] != '"' && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] != '\n') {
        escaped = true;
        ++i_;
      }
      ++i_;
    }
    t.text = s_.substr(first, i_ - first);
    if (escaped) t.text = strings_.emplace_back(unescape(t.text));
    if (i_ >= s_.size() || s_[i_] != '"') {
      error(t, "string literal is not terminated on its line; expected a closing '\"'");
      return false;
    }
    ++i_;
    return true;
  }

  static std::string unescape(std::string_view raw) {
    std::string out;
    for (size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == '\\' && k + 1 < raw.size()) ++k;
      out.push_back(raw[k]);
    }
    return out;
  }

  // spirv-dis' header: "; Version: 1.4", "; Generator: Khronos LLVM/SPIR-V Translator; 14",
  // "; Bound: 54", "; Schema: 0".
  void headerComment(std::string_view c) {
    Header& h = header_;
    auto trim = [](std::string_view v) {
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
      while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r')) v.remove_suffix(1);
      return v;
    };
    c = trim(c);
    auto field = [&](std::string_view key) -> std::optional<std::string_view> {
      if (c.substr(0, key.size()) != key) return std::nullopt;
      return trim(c.substr(key.size()));
    };
    auto number = [](std::string_view v) -> std::optional<uint32_t> {
      auto p = detail::parseInteger(v);
      if (!p || p->negative || p->magnitude > UINT32_MAX) return std::nullopt;
      return static_cast<uint32_t>(p->magnitude);
    };
    if (auto v = field("Version:")) {
      size_t dot = v->find('.');
      auto major = number(v->substr(0, dot)), minor = dot == std::string_view::npos ? std::nullopt : number(v->substr(dot + 1));
      if (major && minor) h.version = (*major << 16) | (*minor << 8);
    } else if (auto v = field("Generator:")) {
      size_t semi = v->rfind(';');
      if (semi == std::string_view::npos) {
        h.generator = number(*v);
        return;
      }
      std::string_view tool = trim(v->substr(0, semi));
      auto version = number(trim(v->substr(semi + 1)));
      std::optional<uint32_t> toolId;
      if (const auto* g = grammar::findGeneratorTool(tool)) toolId = g->id;
      else if (tool.substr(0, 8) == "Unknown(" && tool.back() == ')') toolId = number(tool.substr(8, tool.size() - 9));
      if (toolId && version) h.generator = (*toolId << 16) | (*version & 0xffff);
    } else if (auto v = field("Bound:")) {
      h.bound = number(*v);
    } else if (auto v = field("Schema:")) {
      h.schema = number(*v);
    }
  }

  void error(const Token& t, std::string message) {
    SourceLoc loc{file_, 0, t.line, t.column, true};
    diags_.push_back({Diagnostic::Severity::Error, loc, "token", std::move(message)});
  }

  std::string_view s_;
  const std::string& file_;
  std::vector<Diagnostic>& diags_;
  Header header_;
  std::deque<std::string> strings_; // unescaped string literals with escapes; tokens view them
  size_t i_ = 0, lineStart_ = 0;
  uint32_t line_ = 1;
  bool sawToken_ = false;
};

// The number of a numeric id (the text after '%'), read as spirv-as reads it (like strtoul with base
// 0): decimal, 0x-hex, or octal after a leading 0 (%010 is id 8, %08 a name). -1 for a name; like
// spirv-as, a number that does not fit 32 bits is a name. (A plain integer, not an optional: this runs
// for every id token in both passes.)
int64_t numericId(std::string_view s) {
  if (s.empty() || s[0] < '0' || s[0] > '9') return -1;
  int base = 10;
  if (s.size() > 1 && s[0] == '0') {
    base = s[1] == 'x' || s[1] == 'X' ? 16 : 8;
    s.remove_prefix(base == 16 ? 2 : 1);
    if (s.empty()) return -1; // "0x"
  }
  int64_t v = 0;
  for (char c : s) {
    char lower = static_cast<char>(c | 0x20);
    int digit = c >= '0' && c <= '9' ? c - '0' : lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : base;
    if (digit >= base) return -1;
    v = v * base + digit;
    if (v > UINT32_MAX) return -1;
  }
  return v;
}

// What the first pass learns: every numeric id of the text (spirv-as never gives a name a number
// that appears anywhere as a numeric id) and how many lines have tokens (at least one per instruction).
struct Prescan {
  Header header;
  std::vector<bool> numeric; // by id number
  uint32_t maxNumeric = 0;
  size_t tokenLines = 0;
};

// Pass 1. Throws the lexical errors and out-of-range ids, all of them, before anything is encoded.
Prescan prescan(std::string_view text, const std::string& fileName) {
  std::vector<Diagnostic> diags;
  Lexer lexer(text, fileName, diags);
  Prescan out;
  uint32_t lastLine = 0;
  Token t;
  for (lexer.next(t); t.kind != Token::Kind::End; lexer.next(t)) {
    if (t.line != lastLine) {
      ++out.tokenLines;
      lastLine = t.line;
    }
    if (t.kind != Token::Kind::Id) continue;
    int64_t v = numericId(t.text);
    if (v < 0) continue;
    if (v == 0 || v > kMaxId) {
      diags.push_back({Diagnostic::Severity::Error, SourceLoc{fileName, 0, t.line, t.column, true}, "id",
                       fmt::format("id %{} is out of range; expected 1 to {}", t.text, kMaxId)});
      continue;
    }
    auto id = static_cast<Id>(v);
    if (id >= out.numeric.size()) out.numeric.resize(std::max<size_t>(id + 1, 2 * out.numeric.size()));
    out.numeric[id] = true;
    out.maxNumeric = std::max(out.maxNumeric, id);
  }
  if (!diags.empty()) throw DiagnosticError(std::move(diags));
  out.header = lexer.header();
  return out;
}

// Numbers ids as `spirv-as --preserve-numeric-ids` does (see the top of the file).
class IdNumbering {
public:
  IdNumbering(Prescan& scan, std::unordered_map<Id, std::string>& names)
      : numeric_(std::move(scan.numeric)), maxNumeric_(scan.maxNumeric), names_(names) {}

  // The id of `text` (an id token's text), numbering a name at its first use.
  Id number(std::string_view text) {
    if (int64_t v = numericId(text); v >= 0) return static_cast<Id>(v); // the first pass checked the range
    auto [it, isNew] = named_.try_emplace(text, 0);
    if (isNew) {
      while (nextFree_ < numeric_.size() && numeric_[nextFree_]) ++nextFree_;
      it->second = nextFree_++;
      names_.emplace(it->second, std::string(text));
    }
    return it->second;
  }

  // The id of `text` if it has one already (numeric, or a name used before), else 0.
  Id find(std::string_view text) const {
    if (int64_t v = numericId(text); v >= 0) return static_cast<Id>(v);
    auto it = named_.find(text);
    return it == named_.end() ? 0 : it->second;
  }

  // One more than the largest id, as spirv-as writes it.
  Id bound() const { return std::max(maxNumeric_, nextFree_ - 1) + 1; }

private:
  std::vector<bool> numeric_;
  uint32_t maxNumeric_;
  std::unordered_map<std::string_view, Id> named_; // keys view the source text
  Id nextFree_ = 1;
  std::unordered_map<Id, std::string>& names_;
};

// The parser's window on the token sequence of pass 2: the current token, one more (to see "%id ="),
// and the last token taken (an instruction goes on while its tokens stay on the same line).
class TokenStream {
public:
  explicit TokenStream(Lexer& lexer) : lexer_(lexer) {
    lexer_.next(slots_[1]);
    lexer_.next(slots_[2]);
  }

  const Token& peek(size_t k = 0) const { return slot(1 + k); }
  const Token& last() const { return slot(0); }
  // Moves on by one token and returns the one taken (valid until the next take()).
  const Token& take() {
    last_ = (last_ + 1) % 3;
    lexer_.next(slots_[(last_ + 2) % 3]); // into the slot of the token taken before
    return slot(0);
  }

  // True when the current token starts the next instruction: the end, or on a later line than the
  // last token an Op name or "%id =".
  bool atNextInstruction() const {
    const Token& t = peek();
    if (t.kind == Token::Kind::End) return true;
    if (t.line == last().line) return false;
    // No operand word looks like "Op" + capital letter, so such a word on a new line is an
    // instruction, known or not (unknown ones are then reported as such).
    if (t.kind == Token::Kind::Word)
      return t.text.size() > 2 && t.text.starts_with("Op") &&
             std::isupper(static_cast<unsigned char>(t.text[2]));
    return t.kind == Token::Kind::Id && peek(1).kind == Token::Kind::Equals;
  }

  void skipToNextInstruction() {
    while (!atNextInstruction()) take();
  }

private:
  // Last taken, current and next token, rotating (tokens are lexed in place, never copied).
  const Token& slot(size_t k) const { return slots_[(last_ + k) % 3]; }

  Lexer& lexer_;
  std::array<Token, 3> slots_;
  size_t last_ = 0;
};

// Encodes one instruction's operand tokens into words, driven by the grammar walk.
class TextCursor : public detail::OperandCursor {
public:
  // `resultId` is 0 when the result is a name not used before: spirv-as numbers it after the result
  // type, so it is numbered when the walk reaches it.
  TextCursor(TokenStream& in, std::string_view resultName, Id resultId, IdNumbering& ids,
             const std::unordered_map<Id, std::string>& names, const std::string& file, const char* construct,
             std::vector<uint32_t>& words)
      : in_(in), resultName_(resultName), resultId_(resultId), ids_(ids), names_(names), file_(file),
        construct_(construct), words_(words) {}

  std::string idName(Id id) const override {
    auto it = names_.find(id);
    return it == names_.end() ? fmt::format("%{}", id) : "%" + it->second;
  }

  Id resultId() const { return resultId_; }

  bool atEnd() override { return in_.atNextInstruction(); }

  Id id(const OperandDesc& d) override {
    if (d.kind == OperandKind::IdResult) {
      if (resultId_ == 0) resultId_ = ids_.number(resultName_);
      words_.push_back(resultId_);
      return resultId_;
    }
    const Token& t = next(d);
    if (t.kind != Token::Kind::Id) failAt(t, fmt::format("expected an id (%name or %number){}", what(d)));
    Id v = ids_.number(t.text);
    words_.push_back(v);
    return v;
  }

  uint32_t literal(const OperandDesc& d) override {
    uint32_t v = static_cast<uint32_t>(integerLiteral(d, 32));
    words_.push_back(v);
    return v;
  }

  void literal64(const OperandDesc& d) override {
    uint64_t v = integerLiteral(d, 64);
    words_.push_back(static_cast<uint32_t>(v));
    words_.push_back(static_cast<uint32_t>(v >> 32));
  }

  // The next operand as an integer literal that fits `width` bits.
  uint64_t integerLiteral(const OperandDesc& d, uint32_t width) {
    const Token& t = next(d);
    auto p = t.kind == Token::Kind::Word ? detail::parseInteger(t.text) : std::nullopt;
    auto v = p ? detail::fitInteger(*p, width) : std::nullopt;
    if (!v) failAt(t, fmt::format("expected a {}-bit integer literal{}", width, what(d)));
    return *v;
  }

  void number(const OperandDesc& d, detail::NumberType type) override {
    const Token& t = next(d);
    if (type.width == 0 || type.width > 64)
      failAt(t, fmt::format("literals of {}-bit types are not supported", type.width));
    std::optional<uint64_t> bits;
    if (t.kind == Token::Kind::Word) {
      if (type.isFloat) {
        bits = detail::parseFloat(t.text, type.width);
      } else if (auto p = detail::parseInteger(t.text)) {
        bits = detail::fitInteger(*p, type.width);
        // Narrow signed types are sign-extended into the word, as SPIR-V requires.
        if (bits && type.isSigned && type.width < 32 && ((*bits >> (type.width - 1)) & 1))
          *bits |= ~((uint64_t(1) << type.width) - 1) & 0xffffffffu;
      }
    }
    if (!bits)
      failAt(t, fmt::format("expected a {}-bit {} literal{}", type.width, type.isFloat ? "float" : "integer", what(d)));
    words_.push_back(static_cast<uint32_t>(*bits));
    if (type.width > 32) words_.push_back(static_cast<uint32_t>(*bits >> 32));
  }

  void string(const OperandDesc& d) override {
    const Token& t = next(d);
    if (t.kind != Token::Kind::String) failAt(t, fmt::format("expected a string literal{}", what(d)));
    detail::encodeString(t.text, words_);
  }

  uint32_t enumValue(const OperandDesc& d, bool isMask) override {
    const Token& t = next(d);
    const char* kindName = grammar::kindInfo(d.kind).name;
    if (t.kind != Token::Kind::Word) failAt(t, fmt::format("expected a {} operand", kindName));
    uint32_t value = 0;
    std::string_view rest = t.text;
    while (true) {
      size_t bar = isMask ? rest.find('|') : std::string_view::npos;
      std::string_view part = rest.substr(0, bar);
      if (const auto* e = grammar::findEnumerant(d.kind, part)) {
        value |= e->value;
      } else if (auto p = detail::parseInteger(part); p && !p->negative && p->magnitude <= UINT32_MAX) {
        value |= static_cast<uint32_t>(p->magnitude);
      } else {
        failAt(t, fmt::format("'{}' is not a {} {}", part, kindName, isMask ? "bit" : "value"));
      }
      if (bar == std::string_view::npos) break;
      rest.remove_prefix(bar + 1);
    }
    words_.push_back(value);
    return value;
  }

  uint32_t extInstNumber(const OperandDesc& d, bool isOpenCLStd) override {
    const Token& t = next(d);
    if (t.kind == Token::Kind::Word) {
      if (isOpenCLStd)
        if (const auto* e = grammar::findOpenCLStd(t.text)) {
          words_.push_back(e->number);
          return e->number;
        }
      if (auto p = detail::parseInteger(t.text); p && !p->negative && p->magnitude <= UINT32_MAX) {
        words_.push_back(static_cast<uint32_t>(p->magnitude));
        return static_cast<uint32_t>(p->magnitude);
      }
    }
    failAt(t, isOpenCLStd ? "expected an OpenCL.std instruction name or number"
                          : "expected an extended instruction number");
  }

  uint16_t specOpcode(const OperandDesc& d) override {
    const Token& t = next(d);
    if (t.kind == Token::Kind::Word) {
      const auto* info = grammar::findInstruction("Op" + std::string(t.text));
      if (!info) info = grammar::findInstruction(t.text);
      if (info) {
        words_.push_back(info->opcode);
        return info->opcode;
      }
    }
    failAt(t, "expected an opcode name for OpSpecConstantOp (e.g. IAdd)");
  }

  [[noreturn]] void fail(const std::string& message) override {
    const Token& t = in_.last();
    SourceLoc loc{file_, 0, t.line, t.column, true};
    throw DiagnosticError(loc, construct_, message);
  }

private:
  const Token& next(const OperandDesc& d) {
    if (atEnd()) fail(fmt::format("missing operand{}", what(d)));
    return in_.take();
  }

  static std::string what(const OperandDesc& d) {
    return *d.name ? fmt::format(" for operand '{}'", d.name) : std::string();
  }

  [[noreturn]] void failAt(const Token& t, const std::string& expected) {
    SourceLoc loc{file_, 0, t.line, t.column, true};
    throw DiagnosticError(loc, construct_, fmt::format("{}, found {}", expected, describe(t)));
  }

  TokenStream& in_;
  std::string_view resultName_;
  Id resultId_;
  IdNumbering& ids_;
  const std::unordered_map<Id, std::string>& names_;
  const std::string& file_;
  const char* construct_;
  std::vector<uint32_t>& words_;
};

} // namespace

Module readText(std::string_view text, const std::string& fileName) {
  Prescan scan = prescan(text, fileName);
  Module m;
  m.fileName = fileName;
  if (scan.header.version) m.version = *scan.header.version;
  if (scan.header.generator) m.generator = *scan.header.generator;
  if (scan.header.schema) m.schema = *scan.header.schema;
  m.insts.reserve(scan.tokenLines);
  IdNumbering ids(scan, m.textNames);
  // Line of each id's definition (0: not defined yet), grown as ids appear.
  std::vector<uint32_t> definedAt(scan.maxNumeric + 1, 0);
  auto definedSlot = [&](Id id) -> uint32_t& {
    if (id >= definedAt.size()) definedAt.resize(std::max<size_t>(id + 1, 2 * definedAt.size()), 0);
    return definedAt[id];
  };

  std::vector<Diagnostic> diags, noLexErrors; // the first pass reported the lexical errors
  Lexer lexer(text, fileName, noLexErrors);
  TokenStream in(lexer);
  detail::TypeTracker types;
  std::vector<uint32_t> words; // of the current instruction; reused
  auto at = [&](const Token& t) { return SourceLoc{fileName, 0, t.line, t.column, true}; }; // errors only
  while (in.peek().kind != Token::Kind::End && diags.size() < 50) {
    const Token first = in.peek();
    bool hasResultToken = first.kind == Token::Kind::Id && in.peek(1).kind == Token::Kind::Equals;
    Id resultId = 0;
    if (hasResultToken) {
      resultId = ids.find(first.text);
      in.take();
      in.take();
    }
    const Token& opTok = in.peek();
    const grammar::InstructionInfo* info =
        opTok.kind == Token::Kind::Word ? grammar::findInstruction(opTok.text) : nullptr;
    if (!info) {
      diags.push_back({Diagnostic::Severity::Error, at(opTok), "instruction",
                       fmt::format("expected an instruction name (Op...){}, found {}",
                                   hasResultToken ? " after '='" : " or '%id ='", describe(opTok))});
      if (opTok.kind != Token::Kind::End) {
        in.take();
        in.skipToNextInstruction();
      }
      continue;
    }
    in.take();
    if (info->hasResult != hasResultToken) {
      diags.push_back({Diagnostic::Severity::Error, at(first), info->name,
                       info->hasResult ? "has a result id; expected '%id = " + std::string(info->name) + " ...'"
                                       : "has no result id; expected no '%id =' before it"});
      in.skipToNextInstruction();
      continue;
    }
    if (resultId) { // a new name cannot have been defined before
      uint32_t& definedLine = definedSlot(resultId);
      if (definedLine != 0)
        diags.push_back({Diagnostic::Severity::Error, at(first), info->name,
                         fmt::format("id {} is already defined at line {}; expected each id to be defined once",
                                     describe(first), definedLine)});
      else
        definedLine = first.line;
    }
    words.clear();
    TextCursor cur(in, first.text, resultId, ids, m.textNames, fileName, info->name, words);
    try {
      detail::walkOperands(*info, cur, types);
    } catch (const DiagnosticError& e) {
      diags.insert(diags.end(), e.diagnostics().begin(), e.diagnostics().end());
      if (hasResultToken && !resultId) definedSlot(resultId = ids.number(first.text)) = first.line;
      // Still record the result's type, so that later instructions do not report follow-on errors.
      if (info->hasResultType && info->hasResult && words.size() >= 2) {
        Instruction partial;
        partial.opcode = info->opcode;
        partial.resultType = words[0];
        partial.resultId = words[1];
        types.note(partial);
      }
      in.skipToNextInstruction();
      continue;
    }
    if (hasResultToken && !resultId) definedSlot(cur.resultId()) = first.line;
    Instruction inst;
    inst.opcode = info->opcode;
    inst.line = first.line;
    inst.column = first.column;
    size_t k = 0;
    if (info->hasResultType) inst.resultType = words[k++];
    if (info->hasResult) inst.resultId = words[k++];
    inst.operands.assign(words.begin() + static_cast<ptrdiff_t>(k), words.end());
    types.note(inst);
    m.insts.push_back(std::move(inst));
  }
  // The header's bound is kept when larger, so that binary -> text -> binary is the identity.
  m.bound = std::max(ids.bound(), scan.header.bound.value_or(0));
  if (!diags.empty()) throw DiagnosticError(std::move(diags));
  return m;
}

} // namespace spvhls::spirv
