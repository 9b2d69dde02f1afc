// `reductionlab-cli lab SHEET --session FILE --rung NAME`: a lab sheet (engine/report/
// lab_sheet.h, docs/lab-sheets.md) judged on a saved session, as the app's Your kernel dock
// judges it: each goal met, not met or not measured yet, with the numbers from the session.
#include <cstdio>
#include <memory>
#include <string>

#include "cli.h"
#include "engine/io/session_file.h"
#include "engine/report/lab_sheet.h"

namespace rlcli {

namespace {

struct LabArgs {
  std::string sheet, session, rung;
};

int run_lab(const LabArgs& a) {
  rl::LabSheet sheet;
  try {
    sheet = rl::read_lab_sheet_file(a.sheet);
  } catch (const std::exception& e) {
    throw UsageError(std::string("SHEET ") + e.what());
  }
  std::printf("%s\n%s\n", sheet.title.c_str(), sheet.task.c_str());
  if (a.session.empty()) {  // the sheet alone: its goals and where it starts
    std::printf(
        "starts from %s%s\n", sheet.start.c_str(),
        sheet.starter.empty() ? "" : (" (resources/kernels/" + sheet.starter + ")").c_str());
    for (const rl::LabGoal& g : sheet.goals)
      std::printf("goal: %s\n", rl::describe_goal(g).c_str());
    return kExitOk;
  }
  rl::Session session;
  try {
    session = rl::session_from_json_file(a.session);
  } catch (const std::exception& e) {
    throw UsageError("--session " + a.session + ": " + e.what());
  }
  const std::string rung = a.rung.empty() ? sheet.rung : a.rung;
  if (rung.empty()) throw UsageError("--rung: the sheet names no rung; say which to judge");
  const std::vector<rl::GoalJudgement> goals = rl::judge_lab_sheet(sheet, session, rung);
  for (const rl::GoalJudgement& j : goals)
    std::printf("%-16s %s\n", std::string(rl::to_string(j.verdict)).c_str(), j.sentence.c_str());
  const bool met = rl::lab_sheet_met(goals);
  std::printf("%s: %s\n", rung.c_str(), met ? "every goal met" : "not every goal met");
  return met ? kExitOk : 1;
}

}  // namespace

Command add_lab_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "lab",
      "A lab sheet (docs/lab-sheets.md): its task and goals, or, with --session, each goal "
      "judged on a saved session's points of the rung (exit 1 when one is not met).");
  auto args = std::make_shared<LabArgs>();
  sub->add_option("SHEET", args->sheet,
                  "The lab sheet (JSON; resources/labs/ has the shipped ones)")
      ->required()
      ->type_name("");
  sub->add_option("--session", args->session, "A saved session with the rung's points")
      ->type_name("FILE");
  sub->add_option("--rung", args->rung, "The rung judged (default: the name the sheet suggests)")
      ->type_name("NAME");
  return Command{sub, [args] { return run_lab(*args); }};
}

}  // namespace rlcli
