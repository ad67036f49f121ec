# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_rag_gate_global_optspecs
    string join \n q/quiet v/verbose color= h/help V/version
end

function __fish_rag_gate_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_rag_gate_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_rag_gate_using_subcommand
    set -l cmd (__fish_rag_gate_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c rag-gate -n "__fish_rag_gate_needs_command" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_needs_command" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -s V -l version -d 'Print version'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "check" -d 'Judge a candidate against a baseline with the gates of a TOML gate file'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "compare" -d 'The same analysis without a gate file: deltas, intervals, win/tie/loss (exit 0)'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "init" -d 'Write a commented gate file from two per-query metric files: the metrics, the unit, the slices with their sizes, margins measured on the files (never overwrites a file)'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "plan" -d 'How many queries (or groups) each gated metric × slice needs for its rule at a power, from the gate file\'s own inputs: the units, an interval on them, today\'s detectable drop'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "label-plan" -d 'With [judge]: how many human-labelled queries (groups) each corrected gate needs at its margin and power, and the next batch to label (a seeded random sample, as JSON lines)'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "partial" -d 'One shard\'s summary for `merge`: the gate file (with `[bootstrap] weights = "keyed"`) read on a shard of both sides\' per-query results; each shard must hold whole groups'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "merge" -d 'The report of the shards\' summaries added together: byte for byte the report `check` gives with the same gate file on the whole data (exit 0 pass, 1 a gate failed)'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "eval" -d 'Compute per-query metrics from a run and qrels (trec_eval-exact)'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "aa" -d 'A/A: several runs of one commit → run-to-run noise, flaky queries, noise floor (exit 1 when the identical arms differ significantly: the instrument is broken)'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "baseline" -d 'The baseline: `baseline fetch` downloads main\'s per-query results for the pull request\'s merge-base from GitHub Actions, with a provenance file `check` reports'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "ledger" -d 'main\'s ledger: `ledger record` appends this main run (its delta against its parent and against the anchor) to the ledger carried forward from the parent\'s stored results'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "anchor" -d 'The approved anchor: `anchor write` makes a new anchor file from main\'s stored results (reviewed re-anchoring: the new file is committed like any change)'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "completions" -d 'Print the completion script for SHELL (bash, zsh, fish, powershell, elvish)'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "man" -d 'Print the man page (roff) of rag-gate, or of COMMAND (`check`, `baseline fetch`, ...)'
complete -c rag-gate -n "__fish_rag_gate_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l seed -d 'Override [bootstrap] seed' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l resamples -d 'Override [bootstrap] resamples' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l holes -d 'Write the unjudged docs of the gated cutoffs (both runs) as a qrels stub to FILE, or as JSON lines (query_id, doc_id, each side\'s rank) for a judging step when FILE ends in .jsonl' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l probe-batch -d 'With [probe]: write the documents of every probe query whose top k moved, heaviest worst case first, as the next labelling batch (the --holes format: a qrels stub, or JSON lines when FILE ends in .jsonl)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l today -d 'Today\'s date (YYYY-MM-DD) for [noise] quarantine expiry; default: the UTC date' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l format -d 'Report format on stdout (or in --output)' -r -f -a "text\t''
markdown\t''
json\t''
junit\t'JUnit XML: a test case per gate × slice × rule (CI test-report widgets)'"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -s o -l output -d 'Write the report to this file (atomically) instead of stdout' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l export-json -d 'Also write the JSON report to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l export-markdown -d 'Also write the Markdown report to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l export-html -d 'Also write a self-contained HTML report (inline CSS and SVG forest plots) to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l export-junit -d 'Also write the JUnit XML report (a test case per gate × slice × rule) to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l comment -d 'Post the report as one sticky PR comment, updated in place on later runs. `--comment` is best effort (a failure is a warning); `--comment=required` makes a failure exit 2' -r -f -a "off\t'No comment (the default without `--comment`)'
best-effort\t'Post or update the comment; a failure is a warning and the exit code stays the verdict\'s'
required\t'Post or update the comment; a failure exits 2'"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l comment-mode -d 'When to post or edit the comment: always (whenever the report changed), on-change (only when the verdict or a gated row changed) or on-failure (only when failing; an existing comment is still edited). The job summary is written every time' -r -f -a "always\t'Create the comment, or edit it whenever the report changed'
on-change\t'Leave an existing comment alone while the verdict and the gated rows stay the same (their digest is in the comment\'s hidden marker); create or edit it otherwise'
on-failure\t'Post only when the gate fails; an existing comment is still edited, so it says when the pull request passes again'"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l html-artifact -d 'Name of the workflow artifact the HTML report (`--export-html`) is uploaded as; the comment and the job summary then say where to find it. The Action sets it' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l pr -d 'Pull request number (default: from the event at GITHUB_EVENT_PATH)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l token-env -d 'Environment variable that holds the GitHub token' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l state-key-env -d 'Environment variable that holds the key the comment\'s hidden state (attempts of one commit, the pull request\'s looks) is signed with (HMAC-SHA-256); unset: a plain SHA-256' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l dump-config -d 'Print the effective configuration, defaults filled in, and exit'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l details -d 'The text report in full: the protocol table too (overrides [report] details)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -l check-run -d 'Also create or update a GitHub check run named `rag-gate: GATE` on the judged commit: conclusion success (pass, untouched), failure (fail) or neutral (inconclusive), the headline as its title, the Markdown report as its summary. Needs `checks: write`; best effort (a failure is a warning and the exit code stays the verdict\'s)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l queries -d 'Queries file (JSONL with query_id, group, slices)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l baseline-replicate -d 'A further replicate run of the baseline\'s commit (repeat): the interval then carries the run-to-run noise' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l candidate-replicate -d 'A further replicate run of the candidate\'s commit (repeat)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l metric -d 'Metric to compare (repeat); default: every metric both files have' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l by -d 'Report every value of this slice tag (repeat)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l unit -d 'Resampling unit' -r -f -a "query\t''
group\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l method -d 'Interval method: bootstrap-t (studentised, the calibrated default), percentile, BCa (bias-corrected and accelerated) or expanded-percentile' -r -f -a "bootstrap-t\t''
percentile\t''
bca\t''
expanded-percentile\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l seed -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l resamples -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l confidence -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l missing -d 'What to do with queries in one file only' -r -f -a "error\t''
intersect\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l worst -d 'Number of worst regressions listed per comparison' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l tie-epsilon -d '|delta| at or below this is a tie' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l id-column -d 'Column with the query id in CSV/TSV files' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l column -d 'Column mapping for table inputs (repeat): `id=sample_id`, `group=conversation_id`, `slice:lang=language`, `recall@5=id_based_context_recall` (a metric). When metrics are mapped, other columns are ignored; same as the gate file\'s long form' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l input-format -d 'Format of both inputs [default: by extension, else recognised from the content: JSONL, CSV/TSV with a header, trec_eval / ir_measures -q; needed only for Parquet on a pipe]' -r -f -a "jsonl\t''
csv\t''
tsv\t''
trec-eval\t''
ir-measures\t''
parquet\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l baseline-format -d 'Format of the baseline (and its replicates) only; overrides --input-format' -r -f -a "jsonl\t''
csv\t''
tsv\t''
trec-eval\t''
ir-measures\t''
parquet\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l candidate-format -d 'Format of the candidate (and its replicates) only; overrides --input-format' -r -f -a "jsonl\t''
csv\t''
tsv\t''
trec-eval\t''
ir-measures\t''
parquet\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l lower-is-better -d 'A metric where lower is better (latency, cost), so a rise reads as worse (repeat)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l higher-is-better -d 'A metric rag-gate does not know where higher is better (repeat); a column whose direction is neither known nor given is refused' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l baseline-card -d 'The baseline\'s run card (JSON: model, conditions, run-level metrics, curves), for the Efficiency section; needs --candidate-card' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l candidate-card -d 'The candidate\'s run card; needs --baseline-card' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l guarantee -d 'What the intervals and labels guarantee, as `[verdict] guarantee` in a gate file: regular (a change touching fewer than the stated resolution can hide) or distribution-free (each mean of a metric in [0, 1] also reaches the finite-sample bound with an unseen query at the worst loss)' -r -f -a "regular\t''
distribution-free\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l format -d 'Report format on stdout (or in --output)' -r -f -a "text\t''
markdown\t''
json\t''
junit\t'JUnit XML: a test case per gate × slice × rule (CI test-report widgets)'"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -s o -l output -d 'Write the report to this file (atomically) instead of stdout' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l export-json -d 'Also write the JSON report to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l export-markdown -d 'Also write the Markdown report to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l export-html -d 'Also write a self-contained HTML report (inline CSS and SVG forest plots) to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l export-junit -d 'Also write the JUnit XML report (a test case per gate × slice × rule) to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -l details -d 'The text report in full: the protocol table too (overrides [report] details)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand compare" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand init" -l baseline -d 'Per-query metrics of the baseline (JSONL, CSV/TSV, Parquet, trec_eval or ir_measures -q output), as `check` reads them' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand init" -l candidate -d 'Per-query metrics of the candidate' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand init" -l queries -d 'Queries file (JSONL with query_id, group, slices): the groups and the slice tags' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand init" -l group-from-id -d 'A regex with one capture giving a query\'s group from its id, e.g. "^(.*)<::>" (default: the groups of the files, else a multi-turn pattern every id matches)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand init" -s o -l output -d 'Write the gate file here (a new file; its paths are made relative to its folder) instead of stdout' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand init" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand init" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand init" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand init" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand plan" -l power -d 'The chance a rule should work: a change of nothing passes `max-drop` / `max-change`, and `fail-if-significant-drop` catches the drop (`--drop`)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand plan" -l drop -d 'The true drop `fail-if-significant-drop` should catch (default: twice its margin, or the gate\'s max-drop when its margin is 0)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand plan" -l pull-requests -d 'Pull requests of each kind (honest, a regression at the margin) made from the gate file\'s own pair and judged as `check` judges them, to predict friction, amber and escape (0: skip)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand plan" -l format -d 'Output format' -r -f -a "text\t''
markdown\t''
json\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand plan" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand plan" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand plan" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand plan" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l power -d 'The chance each corrected gate should pass an unchanged system (max-drop, max-change)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l assurance -d 'The share of pilots like the labelled units so far for which the planned size gives at least that power: the size reads the labelled spreads\' upper confidence limit at this level (0.5 reads them about as they are)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l batch -d 'Units (queries; conversations with the group unit) to draw for the next batch (default: what the gates still need)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l seed -d 'Seed of the batch\'s random sample (default: the gate file\'s [bootstrap] seed)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -s o -l output -d 'Write the batch here as JSON lines: {"query_id", "group", "inclusion_probability"}' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l plant -d 'Plant N pairs of each kind for the judge to label beside the real ones: an irrelevant passage with the query\'s words stuffed in, and one with an instruction to the assessor (needs --queries-text, --corpus, --plant-out, --plant-key)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l queries-text -d 'The queries\' text, JSON lines {"query_id" (or "_id"), "text"} (BEIR queries.jsonl)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l corpus -d 'The passages\' text, JSON lines {"doc_id" (or "_id"), "title"?, "text"} (BEIR corpus.jsonl): the planted passages are drawn from it' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l plant-out -d 'Write the planted pairs here for the judge, JSON lines {"query_id", "doc_id", "text"}' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l plant-key -d 'Write which pairs are planted, and how, here (JSON lines; keep it from the judge; the gate file\'s [judge] plant-key reads it)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -l active -d 'Draw an active sample: more labels where the judge\'s delta is large, each unit with its inclusion probability; the file lists the labelled units too, for [judge] sample'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand label-plan" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand partial" -l baseline -d 'The shard of the baseline\'s per-query metrics (read in the gate file\'s baseline format)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand partial" -l candidate -d 'The same queries\' candidate metrics' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand partial" -l queries -d 'The shard\'s queries file (groups and slice tags), when the gate file has one' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand partial" -s o -l output -d 'Write the summary (JSON) here (atomically; `-` for stdout)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand partial" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand partial" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand partial" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand partial" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand merge" -l format -d 'Report format on stdout (or in --output)' -r -f -a "text\t''
markdown\t''
json\t''
junit\t'JUnit XML: a test case per gate × slice × rule (CI test-report widgets)'"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand merge" -s o -l output -d 'Write the report to this file (atomically) instead of stdout' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand merge" -l export-json -d 'Also write the JSON report to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand merge" -l export-markdown -d 'Also write the Markdown report to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand merge" -l export-html -d 'Also write a self-contained HTML report (inline CSS and SVG forest plots) to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand merge" -l export-junit -d 'Also write the JUnit XML report (a test case per gate × slice × rule) to this file' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand merge" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand merge" -l details -d 'The text report in full: the protocol table too (overrides [report] details)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand merge" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand merge" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand merge" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l qrels -d 'Qrels: TREC, JSONL {"query_id", "gold"}, ranx/BEIR JSON, BEIR TSV or LlamaIndex JSONL (recognised from content; gzip undone; `-` is stdin)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l run -d 'Run: TREC, JSONL {"query_id", "ranked"}, ranx/BEIR JSON, MS MARCO TSV or LlamaIndex JSONL (recognised from content; gzip undone; `-` is stdin)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l metrics -d 'Comma-separated metrics: recall@k, p@k, mrr@k, mrr, ndcg@k, ndcg, ap@k, map, rprec, hit@k, complete@k (1 if every relevant document is in the top k), judged@k (share of the top k that is judged), ann-recall@k (the last only with --exact-run, on its own)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l format -d 'Per-query output format; `json` prints the summary only' -r -f -a "jsonl\t'`{"query_id": "q1", "ndcg@10": 0.5, ...}` per line'
csv\t'`query_id,ndcg@10,...` header then one row per query'
trec\t'trec_eval -q layout: `ndcg_cut_10\\tq1\\t0.5`'
json\t'The summary only (same as --summary)'"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -s o -l output -d 'Write the per-query rows to FILE (atomically) instead of stdout' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l rel-level -d 'Relevant means rel >= N for every binary metric (trec_eval -l); nDCG uses raw grades' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l gain -d 'nDCG gain: linear (rel, trec_eval) or exponential (2^rel - 1)' -r -f -a "linear\t'gain = rel (trec_eval)'
exponential\t'gain = 2^rel − 1 (Burges et al.)'"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l order -d 'Ranking order [default: score for TREC runs (trec_eval\'s rule), given for JSONL]' -r -f -a "score\t'Score descending as f64, ties by docid descending in byte order (trec_eval)'
rank\t'The TREC rank column ascending, ties by docid descending'
given\t'File order (TREC line order; JSONL list order)'"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l empty-gold -d 'Queries with no relevant doc at --rel-level: zero (kept, binary metrics 0, nDCG by its grades: trec_eval at every -l, with or without -c), exclude (listed, not averaged), error' -r -f -a "exclude\t'Leave it out of every row and mean; list it in `excluded` (`check`\'s default: a query with nothing to find is a tie at 0 on both sides and would only dilute the deltas)'
zero\t'Keep it: binary metrics are 0, nDCG by its grades; what trec_eval does at every `-l`, with or without `-c` (`rag-gate eval`\'s default)'
error\t'Stop with an error naming the query and its qrels line'"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l qrels-format -d 'Qrels format, instead of recognising it from content and name' -r -f -a "trec\t'Whitespace-separated TREC lines (`qid Q0 docid rank score tag`; qrels `qid 0 docid rel`)'
jsonl\t'One JSON object per line: {"query_id", "ranked"} runs, {"query_id", "gold"} qrels'
json\t'ranx / BEIR JSON map: run {qid: {doc_id: score}}, qrels {qid: {doc_id: rel}}'
beir\t'BEIR qrels TSV with a header line: `query-id corpus-id score`'
msmarco\t'MS MARCO run TSV: `qid pid rank` (ordered by rank)'
llamaindex\t'LlamaIndex-style JSONL: {"query_id", "expected_ids", "retrieved_ids"}; one file is both the qrels (expected_ids, rel 1) and the run (retrieved_ids in rank order)'
parquet\t'Parquet, a file or a folder of part files: runs `qid, doc_id, score and/or rank`, qrels `qid, doc_id, relevance` (names mappable with `--column`)'"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l run-format -d 'Run format (also of --exact-run), instead of recognising it from content and name' -r -f -a "trec\t'Whitespace-separated TREC lines (`qid Q0 docid rank score tag`; qrels `qid 0 docid rel`)'
jsonl\t'One JSON object per line: {"query_id", "ranked"} runs, {"query_id", "gold"} qrels'
json\t'ranx / BEIR JSON map: run {qid: {doc_id: score}}, qrels {qid: {doc_id: rel}}'
beir\t'BEIR qrels TSV with a header line: `query-id corpus-id score`'
msmarco\t'MS MARCO run TSV: `qid pid rank` (ordered by rank)'
llamaindex\t'LlamaIndex-style JSONL: {"query_id", "expected_ids", "retrieved_ids"}; one file is both the qrels (expected_ids, rel 1) and the run (retrieved_ids in rank order)'
parquet\t'Parquet, a file or a folder of part files: runs `qid, doc_id, score and/or rank`, qrels `qid, doc_id, relevance` (names mappable with `--column`)'"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l corpus -d 'Corpus doc ids, one per line: any other gold or ranked id is an error' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l chunk-map -d '`chunk_id<TAB>doc_id`: map a chunk run to documents (first occurrence kept, then cutoffs)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l exact-run -d 'Exact-search run for ann-recall@k (--run is then the approximate run)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l holes -d 'Write the unjudged docs within the metrics\' largest cutoff as a qrels stub to FILE' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l column -d 'Column names of a Parquet run (repeat): `qid=query_id`, `doc_id=passage`, `score=similarity`, `rank=position` [default: the usual names, docs/eval.md]' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l qrels-column -d 'Column names of Parquet qrels (repeat): `qid=query_id`, `doc_id=corpus_id`, `relevance=label` [default: the usual names]' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l summary -d 'Print the summary JSON on stdout (rows then go only to -o FILE, if given)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -l judged-only -d 'Condensed lists (trec_eval -J): remove every unjudged doc from each ranking before scoring'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand eval" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -l queries -d 'Queries file (JSONL with query_id, group, slices)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -l metric -d 'Metric to measure (repeat); default: every metric the files share' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -l by -d 'Report every value of this slice tag (repeat)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -l seed -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -l resamples -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -l confidence -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -l tie-epsilon -d 'A query whose values differ by more than this between replicates is flaky' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -l id-column -d 'Column with the query id in CSV/TSV files' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -l format -d 'Report format on stdout (json: the noise file)' -r -f -a "text\t''
json\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -s o -l output -d 'Write the noise file (JSON, for `[noise] file`) here' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand aa" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and not __fish_seen_subcommand_from fetch help" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and not __fish_seen_subcommand_from fetch help" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and not __fish_seen_subcommand_from fetch help" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and not __fish_seen_subcommand_from fetch help" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and not __fish_seen_subcommand_from fetch help" -f -a "fetch" -d 'Download the artifact of the newest successful run of WORKFLOW on BRANCH for the merge-base (else the nearest older ancestor, up to 50 commits back) into DIR, unpacked safely, with `rag-gate-baseline.json` (commit, run, date, commits behind) beside it'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and not __fish_seen_subcommand_from fetch help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from fetch" -l artifact -d 'Name of the artifact the base branch\'s workflow uploads (its `name:`)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from fetch" -l workflow -d 'The workflow that uploads it: its file name under .github/workflows (e.g. eval.yml)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from fetch" -l branch -d 'The base branch whose runs count' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from fetch" -l base-sha -d 'The merge-base commit (default: from the event at GITHUB_EVENT_PATH)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from fetch" -l to -d 'Folder to unpack into (created when missing)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from fetch" -l token-env -d 'Environment variable that holds the GitHub token' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from fetch" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from fetch" -l missing-ok -d 'When there is no baseline to fetch (no run, no artifact, expired), write the reason to DIR/rag-gate-baseline.json, warn and exit 0, leaving it to `check`\'s `[baseline] on-missing`. Permission, network and zip problems still exit 2'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from fetch" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from fetch" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from fetch" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from help" -f -a "fetch" -d 'Download the artifact of the newest successful run of WORKFLOW on BRANCH for the merge-base (else the nearest older ancestor, up to 50 commits back) into DIR, unpacked safely, with `rag-gate-baseline.json` (commit, run, date, commits behind) beside it'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand baseline; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and not __fish_seen_subcommand_from record help" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and not __fish_seen_subcommand_from record help" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and not __fish_seen_subcommand_from record help" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and not __fish_seen_subcommand_from record help" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and not __fish_seen_subcommand_from record help" -f -a "record" -d 'Write RESULTS.ledger.json: the parent\'s ledger (beside --parent, checked) carried forward plus this run, per max-drift gate and slice (exit 2 on bad input)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and not __fish_seen_subcommand_from record help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and __fish_seen_subcommand_from record" -l results -d 'This main run\'s per-query results (with its .protocol.json)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and __fish_seen_subcommand_from record" -l parent -d 'The parent commit\'s stored results (from `baseline fetch`), with its ledger beside it' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and __fish_seen_subcommand_from record" -l commit -d 'This run\'s commit (default: GITHUB_SHA, on GitLab CI_COMMIT_SHA)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and __fish_seen_subcommand_from record" -l pr -d 'The pull request this commit merged (default: the forge\'s record of the commit, else its message)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and __fish_seen_subcommand_from record" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and __fish_seen_subcommand_from record" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and __fish_seen_subcommand_from record" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and __fish_seen_subcommand_from record" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and __fish_seen_subcommand_from help" -f -a "record" -d 'Write RESULTS.ledger.json: the parent\'s ledger (beside --parent, checked) carried forward plus this run, per max-drift gate and slice (exit 2 on bad input)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand ledger; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and not __fish_seen_subcommand_from write help" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and not __fish_seen_subcommand_from write help" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and not __fish_seen_subcommand_from write help" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and not __fish_seen_subcommand_from write help" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and not __fish_seen_subcommand_from write help" -f -a "write" -d 'Copy main\'s stored results (FILE, its .protocol.json) to a new anchor with a record (ANCHOR.anchor.json: hash, commit, the ledger\'s final state); never replaces silently'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and not __fish_seen_subcommand_from write help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and __fish_seen_subcommand_from write" -l from -d 'main\'s stored results (e.g. from `baseline fetch`), with .protocol.json beside them' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and __fish_seen_subcommand_from write" -l to -d 'The new anchor file (e.g. anchors/v1.5.jsonl)' -r -F
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and __fish_seen_subcommand_from write" -l name -d 'The anchor\'s name in reports (default: the file stem)' -r
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and __fish_seen_subcommand_from write" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and __fish_seen_subcommand_from write" -l replace -d 'Replace an existing anchor file (otherwise an existing one is an error)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and __fish_seen_subcommand_from write" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and __fish_seen_subcommand_from write" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and __fish_seen_subcommand_from write" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and __fish_seen_subcommand_from help" -f -a "write" -d 'Copy main\'s stored results (FILE, its .protocol.json) to a new anchor with a record (ANCHOR.anchor.json: hash, commit, the ledger\'s final state); never replaces silently'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand anchor; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand completions" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand completions" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand completions" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand completions" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand man" -l color -d 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rag-gate -n "__fish_rag_gate_using_subcommand man" -l list -d 'List the pages instead: each page\'s name, then its command\'s words'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand man" -s q -l quiet -d 'No status lines ("report written to …") and no progress; warnings and errors still show'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand man" -s v -l verbose -d 'Also say what each step did (the inputs read, the bootstrap\'s size, each HTTP retry)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand man" -s h -l help -d 'Print help'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "check" -d 'Judge a candidate against a baseline with the gates of a TOML gate file'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "compare" -d 'The same analysis without a gate file: deltas, intervals, win/tie/loss (exit 0)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "init" -d 'Write a commented gate file from two per-query metric files: the metrics, the unit, the slices with their sizes, margins measured on the files (never overwrites a file)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "plan" -d 'How many queries (or groups) each gated metric × slice needs for its rule at a power, from the gate file\'s own inputs: the units, an interval on them, today\'s detectable drop'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "label-plan" -d 'With [judge]: how many human-labelled queries (groups) each corrected gate needs at its margin and power, and the next batch to label (a seeded random sample, as JSON lines)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "partial" -d 'One shard\'s summary for `merge`: the gate file (with `[bootstrap] weights = "keyed"`) read on a shard of both sides\' per-query results; each shard must hold whole groups'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "merge" -d 'The report of the shards\' summaries added together: byte for byte the report `check` gives with the same gate file on the whole data (exit 0 pass, 1 a gate failed)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "eval" -d 'Compute per-query metrics from a run and qrels (trec_eval-exact)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "aa" -d 'A/A: several runs of one commit → run-to-run noise, flaky queries, noise floor (exit 1 when the identical arms differ significantly: the instrument is broken)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "baseline" -d 'The baseline: `baseline fetch` downloads main\'s per-query results for the pull request\'s merge-base from GitHub Actions, with a provenance file `check` reports'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "ledger" -d 'main\'s ledger: `ledger record` appends this main run (its delta against its parent and against the anchor) to the ledger carried forward from the parent\'s stored results'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "anchor" -d 'The approved anchor: `anchor write` makes a new anchor file from main\'s stored results (reviewed re-anchoring: the new file is committed like any change)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "completions" -d 'Print the completion script for SHELL (bash, zsh, fish, powershell, elvish)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "man" -d 'Print the man page (roff) of rag-gate, or of COMMAND (`check`, `baseline fetch`, ...)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and not __fish_seen_subcommand_from check compare init plan label-plan partial merge eval aa baseline ledger anchor completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and __fish_seen_subcommand_from baseline" -f -a "fetch" -d 'Download the artifact of the newest successful run of WORKFLOW on BRANCH for the merge-base (else the nearest older ancestor, up to 50 commits back) into DIR, unpacked safely, with `rag-gate-baseline.json` (commit, run, date, commits behind) beside it'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and __fish_seen_subcommand_from ledger" -f -a "record" -d 'Write RESULTS.ledger.json: the parent\'s ledger (beside --parent, checked) carried forward plus this run, per max-drift gate and slice (exit 2 on bad input)'
complete -c rag-gate -n "__fish_rag_gate_using_subcommand help; and __fish_seen_subcommand_from anchor" -f -a "write" -d 'Copy main\'s stored results (FILE, its .protocol.json) to a new anchor with a record (ANCHOR.anchor.json: hash, commit, the ledger\'s final state); never replaces silently'
