// Diagnostics shared by every stage: a location, a message, and an error that carries a list of them.
// Every user-facing failure is a DiagnosticError; the driver prints each diagnostic and exits non-zero.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace spvhls {

struct SourceLoc {
  std::string file;
  uint32_t wordOffset = 0;       // binary input
  uint32_t line = 0, column = 0; // text input (1-based); 0 = not text
  bool known = false;

  // "file:line:col", "file: word N" or "file" (or "" when nothing is known).
  std::string str() const;
};

struct Diagnostic {
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string construct; // the instruction or construct, e.g. "OpIAdd" or "loop %for_cond"
  std::string message;   // what was found and what was expected

  std::string str() const; // "file:3:5: error: OpIAdd: <message>"
};

class DiagnosticError : public std::runtime_error {
public:
  explicit DiagnosticError(std::vector<Diagnostic> diags);
  DiagnosticError(SourceLoc loc, std::string construct, std::string message);
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }

private:
  std::vector<Diagnostic> diags_;
};

// A broken invariant of the compiler itself (not of the input): the driver exits with status 3 and
// the message asks for a report. Its diagnostics say so in their text too.
class InternalError : public DiagnosticError {
public:
  explicit InternalError(std::vector<Diagnostic> diags);
  InternalError(SourceLoc loc, std::string construct, std::string message);
  // Re-raises a DiagnosticError from a check of the compiler's own output (IR or schedule verifier)
  // as an internal error.
  static InternalError from(const DiagnosticError& e);
};

} // namespace spvhls
