// Reader for the spirv-dis text syntax:
//   %name = OpX %type %a 42 "str" Enum|Enum2     ; comment
// Numeric ids (%12) keep their number; named ids get fresh numbers above every numeric id, in order of
// first appearance. An instruction ends at the end of its line, unless the next line does not start a
// new instruction (an Op name or "%id ="), in which case it continues there.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <string_view>

#include "frontend/literals.h"
#include "frontend/module.h"
#include "frontend/operand_walk.h"

namespace spvhls::spirv {

namespace {

using grammar::OperandDesc;

// 24 bytes: a million-instruction module has several million tokens.
struct Token {
  enum class Kind : uint8_t { Id, Equals, String, Word, End };
  static constexpr uint32_t kMaxColumn = (1u << 28) - 1; // longer lines report this column
  // Id: without '%'; String: unescaped contents. Views into the source text or the lexer's string store.
  std::string_view text;
  uint32_t line = 0;
  uint32_t column : 28 = 0;
  Kind kind : 4 = Kind::End;
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

class Lexer {
public:
  Lexer(const std::string& text, const std::string& file, std::vector<Diagnostic>& diags)
      : s_(text), file_(file), diags_(diags) {}

  std::vector<Token> run(Header& header) {
    std::vector<Token> out;
    // Raw-id spirv-dis text has a token every 6 characters or so; reserving more than needed costs
    // address space only (untouched pages are not resident), growing by doubling would copy them all.
    out.reserve(s_.size() / 4 + 1);
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\n') {
        ++line_;
        lineStart_ = ++i_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++i_;
      } else if (c == ';') {
        size_t end = s_.find('\n', i_);
        if (end == std::string::npos) end = s_.size();
        if (out.empty()) headerComment(std::string_view(s_).substr(i_ + 1, end - i_ - 1), header);
        i_ = end;
      } else if (c == '=') {
        out.push_back(make(Token::Kind::Equals, "="));
        ++i_;
      } else if (c == '"') {
        lexString(out);
      } else {
        Token t = make(c == '%' ? Token::Kind::Id : Token::Kind::Word, "");
        size_t start = i_ + (c == '%' ? 1 : 0);
        i_ = start;
        while (i_ < s_.size() && !isDelimiter(s_[i_])) ++i_;
        t.text = std::string_view(s_).substr(start, i_ - start);
        if (t.kind == Token::Kind::Id && t.text.empty()) error(t, "'%' must be followed by an id name or number");
        else out.push_back(std::move(t));
      }
    }
    Token end = make(Token::Kind::End, "");
    out.push_back(end);
    return out;
  }

private:
  static bool isDelimiter(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';' || c == '"' || c == '=';
  }

  Token make(Token::Kind kind, std::string_view text) const {
    auto column = static_cast<uint32_t>(std::min<size_t>(i_ - lineStart_ + 1, Token::kMaxColumn));
    return Token{text, line_, column, kind};
  }

  void lexString(std::vector<Token>& out) {
    Token t = make(Token::Kind::String, "");
    ++i_;
    std::string text;
    while (i_ < s_.size() && s_[i_] != '"' && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] != '\n') ++i_; // \" and \\ escape a char
      text.push_back(s_[i_++]);
    }
    strings_.push_back(std::move(text));
    t.text = strings_.back();
    if (i_ >= s_.size() || s_[i_] != '"') {
      error(t, "string literal is not terminated on its line; expected a closing '\"'");
      return;
    }
    ++i_;
    out.push_back(std::move(t));
  }

  // spirv-dis' header: "; Version: 1.4", "; Generator: Khronos LLVM/SPIR-V Translator; 14",
  // "; Bound: 54", "; Schema: 0".
  void headerComment(std::string_view c, Header& h) {
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

  const std::string& s_;
  const std::string& file_;
  std::vector<Diagnostic>& diags_;
  std::deque<std::string> strings_; // unescaped string literals; tokens view them (deque: stable addresses)
  size_t i_ = 0, lineStart_ = 0;
  uint32_t line_ = 1;
};

bool isDigits(std::string_view s) {
  return !s.empty() && s.size() <= 10 && s.find_first_not_of("0123456789") == std::string_view::npos;
}

uint64_t digitsValue(std::string_view s) { // s passed isDigits: at most 10 digits, no overflow
  uint64_t v = 0;
  for (char c : s) v = v * 10 + uint64_t(c - '0');
  return v;
}

// Named ids (%name) to their numbers; keys view the source text.
using IdMap = std::unordered_map<std::string_view, Id>;

// A numeric id is its number (range-checked before encoding starts); a name is looked up.
Id idOf(std::string_view text, const IdMap& ids) {
  return isDigits(text) ? static_cast<Id>(digitsValue(text)) : ids.at(text);
}

// Encodes one instruction's operand tokens into words, driven by the grammar walk.
class TextCursor : public detail::OperandCursor {
public:
  TextCursor(const std::vector<Token>& toks, size_t pos, uint32_t instLine, Id resultId,
             const IdMap& ids, const std::unordered_map<Id, std::string>& names,
             const std::string& file, const std::string& construct, std::vector<uint32_t>& words)
      : toks_(toks), pos_(pos), instLine_(instLine), resultId_(resultId), ids_(ids), names_(names), file_(file),
        construct_(construct), words_(words) {}

  std::string idName(Id id) const override {
    auto it = names_.find(id);
    return it == names_.end() ? fmt::format("%{}", id) : "%" + it->second;
  }

  size_t pos() const { return pos_; }

  // True when the token at `p` starts a new instruction: an Op name, or "%id =".
  static bool startsInstruction(const std::vector<Token>& toks, size_t p) {
    const Token& t = toks[p];
    if (t.kind == Token::Kind::End) return true;
    // No operand word looks like "Op" + capital letter, so such a word on a new line is an
    // instruction, known or not (unknown ones are then reported as such).
    if (t.kind == Token::Kind::Word)
      return t.text.size() > 2 && t.text.rfind("Op", 0) == 0 && std::isupper(static_cast<unsigned char>(t.text[2]));
    return t.kind == Token::Kind::Id && toks[p + 1].kind == Token::Kind::Equals;
  }

  bool atEnd() override {
    const Token& t = toks_[pos_];
    if (t.kind == Token::Kind::End) return true;
    return t.line != lastLine() && startsInstruction(toks_, pos_);
  }

  Id id(const OperandDesc& d) override {
    if (d.kind == OperandKind::IdResult) {
      words_.push_back(resultId_);
      return resultId_;
    }
    const Token& t = next(d);
    if (t.kind != Token::Kind::Id) failAt(t, fmt::format("expected an id (%name or %number){}", what(d)));
    Id v = idOf(t.text, ids_);
    words_.push_back(v);
    return v;
  }

  uint32_t literal(const OperandDesc& d) override {
    const Token& t = next(d);
    auto p = t.kind == Token::Kind::Word ? detail::parseInteger(t.text) : std::nullopt;
    auto v = p ? detail::fitInteger(*p, 32) : std::nullopt;
    if (!v) failAt(t, fmt::format("expected a 32-bit integer literal{}", what(d)));
    words_.push_back(static_cast<uint32_t>(*v));
    return static_cast<uint32_t>(*v);
  }

  void literal64(const OperandDesc& d) override {
    const Token& t = next(d);
    auto p = t.kind == Token::Kind::Word ? detail::parseInteger(t.text) : std::nullopt;
    auto v = p ? detail::fitInteger(*p, 64) : std::nullopt;
    if (!v) failAt(t, fmt::format("expected a 64-bit integer literal{}", what(d)));
    words_.push_back(static_cast<uint32_t>(*v));
    words_.push_back(static_cast<uint32_t>(*v >> 32));
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
    const Token& t = toks_[pos_ > 0 ? pos_ - 1 : 0];
    SourceLoc loc{file_, 0, t.line, t.column, true};
    throw DiagnosticError(loc, construct_, message);
  }

private:
  uint32_t lastLine() const { return pos_ > 0 ? std::max(instLine_, toks_[pos_ - 1].line) : instLine_; }

  const Token& next(const OperandDesc& d) {
    if (atEnd()) fail(fmt::format("missing operand{}", what(d)));
    return toks_[pos_++];
  }

  static std::string what(const OperandDesc& d) {
    return *d.name ? fmt::format(" for operand '{}'", d.name) : std::string();
  }

  [[noreturn]] void failAt(const Token& t, const std::string& expected) {
    SourceLoc loc{file_, 0, t.line, t.column, true};
    throw DiagnosticError(loc, construct_, fmt::format("{}, found {}", expected, describe(t)));
  }

  const std::vector<Token>& toks_;
  size_t pos_;
  uint32_t instLine_;
  Id resultId_;
  const IdMap& ids_;
  const std::unordered_map<Id, std::string>& names_;
  const std::string& file_;
  const std::string& construct_;
  std::vector<uint32_t>& words_;
};

} // namespace

Module readText(const std::string& text, const std::string& fileName) {
  std::vector<Diagnostic> diags;
  Header header;
  Lexer lexer(text, fileName, diags); // owns the unescaped strings the tokens view
  std::vector<Token> toks = lexer.run(header);

  Module m;
  m.fileName = fileName;
  if (header.version) m.version = *header.version;
  if (header.generator) m.generator = *header.generator;
  if (header.schema) m.schema = *header.schema;

  // Ids: numeric ones keep their number, names are numbered after the largest numeric id.
  IdMap ids; // named ids only; numeric ones are their number
  uint32_t maxId = 0;
  for (const auto& t : toks)
    if (t.kind == Token::Kind::Id && isDigits(t.text)) {
      uint64_t v = digitsValue(t.text);
      if (v == 0 || v > 0x3fffff) {
        diags.push_back({Diagnostic::Severity::Error, SourceLoc{fileName, 0, t.line, t.column, true}, "id",
                         fmt::format("id %{} is out of range; expected 1 to {}", t.text, 0x3fffff)});
        continue;
      }
      maxId = std::max(maxId, static_cast<uint32_t>(v));
    }
  Id nextId = maxId + 1;
  for (const auto& t : toks)
    if (t.kind == Token::Kind::Id && !isDigits(t.text) && !ids.count(t.text)) {
      ids[t.text] = nextId;
      m.textNames[nextId] = std::string(t.text);
      ++nextId;
    }
  // The header's bound is kept when larger, so that binary -> text -> binary is the identity.
  m.bound = std::max(nextId, header.bound.value_or(0));
  if (!diags.empty()) throw DiagnosticError(std::move(diags));

  detail::TypeTracker types;
  m.insts.reserve(toks.size() / 4);
  // Line of each id's definition (0: not defined yet); every id is below nextId.
  std::vector<uint32_t> definedAt(nextId, 0);
  size_t p = 0;
  auto skipToNextInstruction = [&](size_t from) {
    uint32_t line = toks[from].line;
    p = from + 1;
    while (toks[p].kind != Token::Kind::End && (toks[p].line == line || !TextCursor::startsInstruction(toks, p))) {
      line = toks[p].line;
      ++p;
    }
  };
  while (toks[p].kind != Token::Kind::End && diags.size() < 50) {
    size_t start = p;
    const Token& first = toks[p];
    SourceLoc loc{fileName, 0, first.line, first.column, true};
    Id resultId = 0;
    if (first.kind == Token::Kind::Id && toks[p + 1].kind == Token::Kind::Equals) {
      resultId = idOf(first.text, ids);
      p += 2;
    }
    const Token& opTok = toks[p];
    const grammar::InstructionInfo* info =
        opTok.kind == Token::Kind::Word ? grammar::findInstruction(opTok.text) : nullptr;
    if (!info) {
      SourceLoc at{fileName, 0, opTok.line, opTok.column, true};
      diags.push_back({Diagnostic::Severity::Error, at, "instruction",
                       fmt::format("expected an instruction name (Op...){}, found {}",
                                   resultId ? " after '='" : " or '%id ='", describe(opTok))});
      skipToNextInstruction(opTok.kind == Token::Kind::End ? start : p);
      continue;
    }
    if (info->hasResult != (resultId != 0)) {
      diags.push_back({Diagnostic::Severity::Error, loc, info->name,
                       info->hasResult ? "has a result id; expected '%id = " + std::string(info->name) + " ...'"
                                       : "has no result id; expected no '%id =' before it"});
      skipToNextInstruction(p);
      continue;
    }
    if (resultId) {
      if (definedAt[resultId] != 0) {
        diags.push_back({Diagnostic::Severity::Error, loc, info->name,
                         fmt::format("id {} is already defined at line {}; expected each id to be defined once",
                                     describe(first), definedAt[resultId])});
      } else {
        definedAt[resultId] = first.line;
      }
    }
    std::vector<uint32_t> words;
    std::string construct = info->name;
    TextCursor cur(toks, p + 1, opTok.line, resultId, ids, m.textNames, fileName, construct, words);
    try {
      detail::walkOperands(*info, cur, types);
    } catch (const DiagnosticError& e) {
      diags.insert(diags.end(), e.diagnostics().begin(), e.diagnostics().end());
      // Still record the result's type, so that later instructions do not report follow-on errors.
      if (info->hasResultType && info->hasResult && words.size() >= 2) {
        Instruction partial;
        partial.opcode = info->opcode;
        partial.resultType = words[0];
        partial.resultId = words[1];
        types.note(partial);
      }
      skipToNextInstruction(p);
      continue;
    }
    p = cur.pos();
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
  if (!diags.empty()) throw DiagnosticError(std::move(diags));
  return m;
}

} // namespace spvhls::spirv
