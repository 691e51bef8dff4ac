#include "frontend/diagnostics.h"

#include <fmt/format.h>

namespace spvhls {

std::string SourceLoc::str() const {
  if (line > 0) return fmt::format("{}:{}:{}", file, line, column);
  if (known) return fmt::format("{}: word {}", file, wordOffset);
  return file;
}

std::string Diagnostic::str() const {
  const char* sev = severity == Severity::Error ? "error" : severity == Severity::Warning ? "warning" : "note";
  std::string where = loc.str();
  std::string out = where.empty() ? fmt::format("{}: ", sev) : fmt::format("{}: {}: ", where, sev);
  if (!construct.empty()) out += construct + ": ";
  return out + message;
}

static std::string joinDiags(const std::vector<Diagnostic>& diags) {
  std::string s;
  for (const auto& d : diags) s += (s.empty() ? "" : "\n") + d.str();
  return s;
}

DiagnosticError::DiagnosticError(std::vector<Diagnostic> diags)
    : std::runtime_error(joinDiags(diags)), diags_(std::move(diags)) {}

DiagnosticError::DiagnosticError(SourceLoc loc, std::string construct, std::string message)
    : DiagnosticError(std::vector<Diagnostic>{
          Diagnostic{Diagnostic::Severity::Error, std::move(loc), std::move(construct), std::move(message)}}) {}

namespace {
constexpr const char* kInternalPrefix = "internal compiler error (please report): ";
std::vector<Diagnostic> markInternal(std::vector<Diagnostic> diags) {
  for (auto& d : diags)
    if (d.message.rfind(kInternalPrefix, 0) != 0) d.message = kInternalPrefix + d.message;
  return diags;
}
} // namespace

InternalError::InternalError(std::vector<Diagnostic> diags) : DiagnosticError(markInternal(std::move(diags))) {}

InternalError::InternalError(SourceLoc loc, std::string construct, std::string message)
    : InternalError(std::vector<Diagnostic>{
          Diagnostic{Diagnostic::Severity::Error, std::move(loc), std::move(construct), std::move(message)}}) {}

InternalError InternalError::from(const DiagnosticError& e) { return InternalError(e.diagnostics()); }

} // namespace spvhls
