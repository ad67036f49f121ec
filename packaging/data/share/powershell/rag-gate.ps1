
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'rag-gate' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'rag-gate'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'rag-gate' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Judge a candidate against a baseline with the gates of a TOML gate file')
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'The same analysis without a gate file: deltas, intervals, win/tie/loss (exit 0)')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write a commented gate file from two per-query metric files: the metrics, the unit, the slices with their sizes, margins measured on the files (never overwrites a file)')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'How many queries (or groups) each gated metric × slice needs for its rule at a power, from the gate file''s own inputs: the units, an interval on them, today''s detectable drop')
            [CompletionResult]::new('label-plan', 'label-plan', [CompletionResultType]::ParameterValue, 'With [judge]: how many human-labelled queries (groups) each corrected gate needs at its margin and power, and the next batch to label (a seeded random sample, as JSON lines)')
            [CompletionResult]::new('partial', 'partial', [CompletionResultType]::ParameterValue, 'One shard''s summary for `merge`: the gate file (with `[bootstrap] weights = "keyed"`) read on a shard of both sides'' per-query results; each shard must hold whole groups')
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'The report of the shards'' summaries added together: byte for byte the report `check` gives with the same gate file on the whole data (exit 0 pass, 1 a gate failed)')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Compute per-query metrics from a run and qrels (trec_eval-exact)')
            [CompletionResult]::new('aa', 'aa', [CompletionResultType]::ParameterValue, 'A/A: several runs of one commit → run-to-run noise, flaky queries, noise floor (exit 1 when the identical arms differ significantly: the instrument is broken)')
            [CompletionResult]::new('baseline', 'baseline', [CompletionResultType]::ParameterValue, 'The baseline: `baseline fetch` downloads main''s per-query results for the pull request''s merge-base from GitHub Actions, with a provenance file `check` reports')
            [CompletionResult]::new('ledger', 'ledger', [CompletionResultType]::ParameterValue, 'main''s ledger: `ledger record` appends this main run (its delta against its parent and against the anchor) to the ledger carried forward from the parent''s stored results')
            [CompletionResult]::new('anchor', 'anchor', [CompletionResultType]::ParameterValue, 'The approved anchor: `anchor write` makes a new anchor file from main''s stored results (reviewed re-anchoring: the new file is committed like any change)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the completion script for SHELL (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff) of rag-gate, or of COMMAND (`check`, `baseline fetch`, ...)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rag-gate;check' {
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Override [bootstrap] seed')
            [CompletionResult]::new('--resamples', '--resamples', [CompletionResultType]::ParameterName, 'Override [bootstrap] resamples')
            [CompletionResult]::new('--holes', '--holes', [CompletionResultType]::ParameterName, 'Write the unjudged docs of the gated cutoffs (both runs) as a qrels stub to FILE, or as JSON lines (query_id, doc_id, each side''s rank) for a judging step when FILE ends in .jsonl')
            [CompletionResult]::new('--probe-batch', '--probe-batch', [CompletionResultType]::ParameterName, 'With [probe]: write the documents of every probe query whose top k moved, heaviest worst case first, as the next labelling batch (the --holes format: a qrels stub, or JSON lines when FILE ends in .jsonl)')
            [CompletionResult]::new('--today', '--today', [CompletionResultType]::ParameterName, 'Today''s date (YYYY-MM-DD) for [noise] quarantine expiry; default: the UTC date')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format on stdout (or in --output)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the report to this file (atomically) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the report to this file (atomically) instead of stdout')
            [CompletionResult]::new('--export-json', '--export-json', [CompletionResultType]::ParameterName, 'Also write the JSON report to this file')
            [CompletionResult]::new('--export-markdown', '--export-markdown', [CompletionResultType]::ParameterName, 'Also write the Markdown report to this file')
            [CompletionResult]::new('--export-html', '--export-html', [CompletionResultType]::ParameterName, 'Also write a self-contained HTML report (inline CSS and SVG forest plots) to this file')
            [CompletionResult]::new('--export-junit', '--export-junit', [CompletionResultType]::ParameterName, 'Also write the JUnit XML report (a test case per gate × slice × rule) to this file')
            [CompletionResult]::new('--comment', '--comment', [CompletionResultType]::ParameterName, 'Post the report as one sticky PR comment, updated in place on later runs. `--comment` is best effort (a failure is a warning); `--comment=required` makes a failure exit 2')
            [CompletionResult]::new('--comment-mode', '--comment-mode', [CompletionResultType]::ParameterName, 'When to post or edit the comment: always (whenever the report changed), on-change (only when the verdict or a gated row changed) or on-failure (only when failing; an existing comment is still edited). The job summary is written every time')
            [CompletionResult]::new('--html-artifact', '--html-artifact', [CompletionResultType]::ParameterName, 'Name of the workflow artifact the HTML report (`--export-html`) is uploaded as; the comment and the job summary then say where to find it. The Action sets it')
            [CompletionResult]::new('--pr', '--pr', [CompletionResultType]::ParameterName, 'Pull request number (default: from the event at GITHUB_EVENT_PATH)')
            [CompletionResult]::new('--token-env', '--token-env', [CompletionResultType]::ParameterName, 'Environment variable that holds the GitHub token')
            [CompletionResult]::new('--state-key-env', '--state-key-env', [CompletionResultType]::ParameterName, 'Environment variable that holds the key the comment''s hidden state (attempts of one commit, the pull request''s looks) is signed with (HMAC-SHA-256); unset: a plain SHA-256')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('--dump-config', '--dump-config', [CompletionResultType]::ParameterName, 'Print the effective configuration, defaults filled in, and exit')
            [CompletionResult]::new('--details', '--details', [CompletionResultType]::ParameterName, 'The text report in full: the protocol table too (overrides [report] details)')
            [CompletionResult]::new('--check-run', '--check-run', [CompletionResultType]::ParameterName, 'Also create or update a GitHub check run named `rag-gate: GATE` on the judged commit: conclusion success (pass, untouched), failure (fail) or neutral (inconclusive), the headline as its title, the Markdown report as its summary. Needs `checks: write`; best effort (a failure is a warning and the exit code stays the verdict''s)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'rag-gate;compare' {
            [CompletionResult]::new('--queries', '--queries', [CompletionResultType]::ParameterName, 'Queries file (JSONL with query_id, group, slices)')
            [CompletionResult]::new('--baseline-replicate', '--baseline-replicate', [CompletionResultType]::ParameterName, 'A further replicate run of the baseline''s commit (repeat): the interval then carries the run-to-run noise')
            [CompletionResult]::new('--candidate-replicate', '--candidate-replicate', [CompletionResultType]::ParameterName, 'A further replicate run of the candidate''s commit (repeat)')
            [CompletionResult]::new('--metric', '--metric', [CompletionResultType]::ParameterName, 'Metric to compare (repeat); default: every metric both files have')
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'Report every value of this slice tag (repeat)')
            [CompletionResult]::new('--unit', '--unit', [CompletionResultType]::ParameterName, 'Resampling unit')
            [CompletionResult]::new('--method', '--method', [CompletionResultType]::ParameterName, 'Interval method: bootstrap-t (studentised, the calibrated default), percentile, BCa (bias-corrected and accelerated) or expanded-percentile')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'seed')
            [CompletionResult]::new('--resamples', '--resamples', [CompletionResultType]::ParameterName, 'resamples')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'confidence')
            [CompletionResult]::new('--missing', '--missing', [CompletionResultType]::ParameterName, 'What to do with queries in one file only')
            [CompletionResult]::new('--worst', '--worst', [CompletionResultType]::ParameterName, 'Number of worst regressions listed per comparison')
            [CompletionResult]::new('--tie-epsilon', '--tie-epsilon', [CompletionResultType]::ParameterName, '|delta| at or below this is a tie')
            [CompletionResult]::new('--id-column', '--id-column', [CompletionResultType]::ParameterName, 'Column with the query id in CSV/TSV files')
            [CompletionResult]::new('--column', '--column', [CompletionResultType]::ParameterName, 'Column mapping for table inputs (repeat): `id=sample_id`, `group=conversation_id`, `slice:lang=language`, `recall@5=id_based_context_recall` (a metric). When metrics are mapped, other columns are ignored; same as the gate file''s long form')
            [CompletionResult]::new('--input-format', '--input-format', [CompletionResultType]::ParameterName, 'Format of both inputs [default: by extension, else recognised from the content: JSONL, CSV/TSV with a header, trec_eval / ir_measures -q; needed only for Parquet on a pipe]')
            [CompletionResult]::new('--baseline-format', '--baseline-format', [CompletionResultType]::ParameterName, 'Format of the baseline (and its replicates) only; overrides --input-format')
            [CompletionResult]::new('--candidate-format', '--candidate-format', [CompletionResultType]::ParameterName, 'Format of the candidate (and its replicates) only; overrides --input-format')
            [CompletionResult]::new('--lower-is-better', '--lower-is-better', [CompletionResultType]::ParameterName, 'A metric where lower is better (latency, cost), so a rise reads as worse (repeat)')
            [CompletionResult]::new('--higher-is-better', '--higher-is-better', [CompletionResultType]::ParameterName, 'A metric rag-gate does not know where higher is better (repeat); a column whose direction is neither known nor given is refused')
            [CompletionResult]::new('--baseline-card', '--baseline-card', [CompletionResultType]::ParameterName, 'The baseline''s run card (JSON: model, conditions, run-level metrics, curves), for the Efficiency section; needs --candidate-card')
            [CompletionResult]::new('--candidate-card', '--candidate-card', [CompletionResultType]::ParameterName, 'The candidate''s run card; needs --baseline-card')
            [CompletionResult]::new('--guarantee', '--guarantee', [CompletionResultType]::ParameterName, 'What the intervals and labels guarantee, as `[verdict] guarantee` in a gate file: regular (a change touching fewer than the stated resolution can hide) or distribution-free (each mean of a metric in [0, 1] also reaches the finite-sample bound with an unseen query at the worst loss)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format on stdout (or in --output)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the report to this file (atomically) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the report to this file (atomically) instead of stdout')
            [CompletionResult]::new('--export-json', '--export-json', [CompletionResultType]::ParameterName, 'Also write the JSON report to this file')
            [CompletionResult]::new('--export-markdown', '--export-markdown', [CompletionResultType]::ParameterName, 'Also write the Markdown report to this file')
            [CompletionResult]::new('--export-html', '--export-html', [CompletionResultType]::ParameterName, 'Also write a self-contained HTML report (inline CSS and SVG forest plots) to this file')
            [CompletionResult]::new('--export-junit', '--export-junit', [CompletionResultType]::ParameterName, 'Also write the JUnit XML report (a test case per gate × slice × rule) to this file')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('--details', '--details', [CompletionResultType]::ParameterName, 'The text report in full: the protocol table too (overrides [report] details)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'rag-gate;init' {
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Per-query metrics of the baseline (JSONL, CSV/TSV, Parquet, trec_eval or ir_measures -q output), as `check` reads them')
            [CompletionResult]::new('--candidate', '--candidate', [CompletionResultType]::ParameterName, 'Per-query metrics of the candidate')
            [CompletionResult]::new('--queries', '--queries', [CompletionResultType]::ParameterName, 'Queries file (JSONL with query_id, group, slices): the groups and the slice tags')
            [CompletionResult]::new('--group-from-id', '--group-from-id', [CompletionResultType]::ParameterName, 'A regex with one capture giving a query''s group from its id, e.g. "^(.*)<::>" (default: the groups of the files, else a multi-turn pattern every id matches)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the gate file here (a new file; its paths are made relative to its folder) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the gate file here (a new file; its paths are made relative to its folder) instead of stdout')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rag-gate;plan' {
            [CompletionResult]::new('--power', '--power', [CompletionResultType]::ParameterName, 'The chance a rule should work: a change of nothing passes `max-drop` / `max-change`, and `fail-if-significant-drop` catches the drop (`--drop`)')
            [CompletionResult]::new('--drop', '--drop', [CompletionResultType]::ParameterName, 'The true drop `fail-if-significant-drop` should catch (default: twice its margin, or the gate''s max-drop when its margin is 0)')
            [CompletionResult]::new('--pull-requests', '--pull-requests', [CompletionResultType]::ParameterName, 'Pull requests of each kind (honest, a regression at the margin) made from the gate file''s own pair and judged as `check` judges them, to predict friction, amber and escape (0: skip)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rag-gate;label-plan' {
            [CompletionResult]::new('--power', '--power', [CompletionResultType]::ParameterName, 'The chance each corrected gate should pass an unchanged system (max-drop, max-change)')
            [CompletionResult]::new('--assurance', '--assurance', [CompletionResultType]::ParameterName, 'The share of pilots like the labelled units so far for which the planned size gives at least that power: the size reads the labelled spreads'' upper confidence limit at this level (0.5 reads them about as they are)')
            [CompletionResult]::new('--batch', '--batch', [CompletionResultType]::ParameterName, 'Units (queries; conversations with the group unit) to draw for the next batch (default: what the gates still need)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the batch''s random sample (default: the gate file''s [bootstrap] seed)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the batch here as JSON lines: {"query_id", "group", "inclusion_probability"}')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the batch here as JSON lines: {"query_id", "group", "inclusion_probability"}')
            [CompletionResult]::new('--plant', '--plant', [CompletionResultType]::ParameterName, 'Plant N pairs of each kind for the judge to label beside the real ones: an irrelevant passage with the query''s words stuffed in, and one with an instruction to the assessor (needs --queries-text, --corpus, --plant-out, --plant-key)')
            [CompletionResult]::new('--queries-text', '--queries-text', [CompletionResultType]::ParameterName, 'The queries'' text, JSON lines {"query_id" (or "_id"), "text"} (BEIR queries.jsonl)')
            [CompletionResult]::new('--corpus', '--corpus', [CompletionResultType]::ParameterName, 'The passages'' text, JSON lines {"doc_id" (or "_id"), "title"?, "text"} (BEIR corpus.jsonl): the planted passages are drawn from it')
            [CompletionResult]::new('--plant-out', '--plant-out', [CompletionResultType]::ParameterName, 'Write the planted pairs here for the judge, JSON lines {"query_id", "doc_id", "text"}')
            [CompletionResult]::new('--plant-key', '--plant-key', [CompletionResultType]::ParameterName, 'Write which pairs are planted, and how, here (JSON lines; keep it from the judge; the gate file''s [judge] plant-key reads it)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('--active', '--active', [CompletionResultType]::ParameterName, 'Draw an active sample: more labels where the judge''s delta is large, each unit with its inclusion probability; the file lists the labelled units too, for [judge] sample')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rag-gate;partial' {
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'The shard of the baseline''s per-query metrics (read in the gate file''s baseline format)')
            [CompletionResult]::new('--candidate', '--candidate', [CompletionResultType]::ParameterName, 'The same queries'' candidate metrics')
            [CompletionResult]::new('--queries', '--queries', [CompletionResultType]::ParameterName, 'The shard''s queries file (groups and slice tags), when the gate file has one')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the summary (JSON) here (atomically; `-` for stdout)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the summary (JSON) here (atomically; `-` for stdout)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rag-gate;merge' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format on stdout (or in --output)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the report to this file (atomically) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the report to this file (atomically) instead of stdout')
            [CompletionResult]::new('--export-json', '--export-json', [CompletionResultType]::ParameterName, 'Also write the JSON report to this file')
            [CompletionResult]::new('--export-markdown', '--export-markdown', [CompletionResultType]::ParameterName, 'Also write the Markdown report to this file')
            [CompletionResult]::new('--export-html', '--export-html', [CompletionResultType]::ParameterName, 'Also write a self-contained HTML report (inline CSS and SVG forest plots) to this file')
            [CompletionResult]::new('--export-junit', '--export-junit', [CompletionResultType]::ParameterName, 'Also write the JUnit XML report (a test case per gate × slice × rule) to this file')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('--details', '--details', [CompletionResultType]::ParameterName, 'The text report in full: the protocol table too (overrides [report] details)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'rag-gate;eval' {
            [CompletionResult]::new('--qrels', '--qrels', [CompletionResultType]::ParameterName, 'Qrels: TREC, JSONL {"query_id", "gold"}, ranx/BEIR JSON, BEIR TSV or LlamaIndex JSONL (recognised from content; gzip undone; `-` is stdin)')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'Run: TREC, JSONL {"query_id", "ranked"}, ranx/BEIR JSON, MS MARCO TSV or LlamaIndex JSONL (recognised from content; gzip undone; `-` is stdin)')
            [CompletionResult]::new('--metrics', '--metrics', [CompletionResultType]::ParameterName, 'Comma-separated metrics: recall@k, p@k, mrr@k, mrr, ndcg@k, ndcg, ap@k, map, rprec, hit@k, complete@k (1 if every relevant document is in the top k), judged@k (share of the top k that is judged), ann-recall@k (the last only with --exact-run, on its own)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Per-query output format; `json` prints the summary only')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the per-query rows to FILE (atomically) instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the per-query rows to FILE (atomically) instead of stdout')
            [CompletionResult]::new('--rel-level', '--rel-level', [CompletionResultType]::ParameterName, 'Relevant means rel >= N for every binary metric (trec_eval -l); nDCG uses raw grades')
            [CompletionResult]::new('--gain', '--gain', [CompletionResultType]::ParameterName, 'nDCG gain: linear (rel, trec_eval) or exponential (2^rel - 1)')
            [CompletionResult]::new('--order', '--order', [CompletionResultType]::ParameterName, 'Ranking order [default: score for TREC runs (trec_eval''s rule), given for JSONL]')
            [CompletionResult]::new('--empty-gold', '--empty-gold', [CompletionResultType]::ParameterName, 'Queries with no relevant doc at --rel-level: zero (kept, binary metrics 0, nDCG by its grades: trec_eval at every -l, with or without -c), exclude (listed, not averaged), error')
            [CompletionResult]::new('--qrels-format', '--qrels-format', [CompletionResultType]::ParameterName, 'Qrels format, instead of recognising it from content and name')
            [CompletionResult]::new('--run-format', '--run-format', [CompletionResultType]::ParameterName, 'Run format (also of --exact-run), instead of recognising it from content and name')
            [CompletionResult]::new('--corpus', '--corpus', [CompletionResultType]::ParameterName, 'Corpus doc ids, one per line: any other gold or ranked id is an error')
            [CompletionResult]::new('--chunk-map', '--chunk-map', [CompletionResultType]::ParameterName, '`chunk_id<TAB>doc_id`: map a chunk run to documents (first occurrence kept, then cutoffs)')
            [CompletionResult]::new('--exact-run', '--exact-run', [CompletionResultType]::ParameterName, 'Exact-search run for ann-recall@k (--run is then the approximate run)')
            [CompletionResult]::new('--holes', '--holes', [CompletionResultType]::ParameterName, 'Write the unjudged docs within the metrics'' largest cutoff as a qrels stub to FILE')
            [CompletionResult]::new('--column', '--column', [CompletionResultType]::ParameterName, 'Column names of a Parquet run (repeat): `qid=query_id`, `doc_id=passage`, `score=similarity`, `rank=position` [default: the usual names, docs/eval.md]')
            [CompletionResult]::new('--qrels-column', '--qrels-column', [CompletionResultType]::ParameterName, 'Column names of Parquet qrels (repeat): `qid=query_id`, `doc_id=corpus_id`, `relevance=label` [default: the usual names]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('--summary', '--summary', [CompletionResultType]::ParameterName, 'Print the summary JSON on stdout (rows then go only to -o FILE, if given)')
            [CompletionResult]::new('--judged-only', '--judged-only', [CompletionResultType]::ParameterName, 'Condensed lists (trec_eval -J): remove every unjudged doc from each ranking before scoring')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'rag-gate;aa' {
            [CompletionResult]::new('--queries', '--queries', [CompletionResultType]::ParameterName, 'Queries file (JSONL with query_id, group, slices)')
            [CompletionResult]::new('--metric', '--metric', [CompletionResultType]::ParameterName, 'Metric to measure (repeat); default: every metric the files share')
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'Report every value of this slice tag (repeat)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'seed')
            [CompletionResult]::new('--resamples', '--resamples', [CompletionResultType]::ParameterName, 'resamples')
            [CompletionResult]::new('--confidence', '--confidence', [CompletionResultType]::ParameterName, 'confidence')
            [CompletionResult]::new('--tie-epsilon', '--tie-epsilon', [CompletionResultType]::ParameterName, 'A query whose values differ by more than this between replicates is flaky')
            [CompletionResult]::new('--id-column', '--id-column', [CompletionResultType]::ParameterName, 'Column with the query id in CSV/TSV files')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format on stdout (json: the noise file)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the noise file (JSON, for `[noise] file`) here')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the noise file (JSON, for `[noise] file`) here')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rag-gate;baseline' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Download the artifact of the newest successful run of WORKFLOW on BRANCH for the merge-base (else the nearest older ancestor, up to 50 commits back) into DIR, unpacked safely, with `rag-gate-baseline.json` (commit, run, date, commits behind) beside it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rag-gate;baseline;fetch' {
            [CompletionResult]::new('--artifact', '--artifact', [CompletionResultType]::ParameterName, 'Name of the artifact the base branch''s workflow uploads (its `name:`)')
            [CompletionResult]::new('--workflow', '--workflow', [CompletionResultType]::ParameterName, 'The workflow that uploads it: its file name under .github/workflows (e.g. eval.yml)')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'The base branch whose runs count')
            [CompletionResult]::new('--base-sha', '--base-sha', [CompletionResultType]::ParameterName, 'The merge-base commit (default: from the event at GITHUB_EVENT_PATH)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Folder to unpack into (created when missing)')
            [CompletionResult]::new('--token-env', '--token-env', [CompletionResultType]::ParameterName, 'Environment variable that holds the GitHub token')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('--missing-ok', '--missing-ok', [CompletionResultType]::ParameterName, 'When there is no baseline to fetch (no run, no artifact, expired), write the reason to DIR/rag-gate-baseline.json, warn and exit 0, leaving it to `check`''s `[baseline] on-missing`. Permission, network and zip problems still exit 2')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rag-gate;baseline;help' {
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Download the artifact of the newest successful run of WORKFLOW on BRANCH for the merge-base (else the nearest older ancestor, up to 50 commits back) into DIR, unpacked safely, with `rag-gate-baseline.json` (commit, run, date, commits behind) beside it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rag-gate;baseline;help;fetch' {
            break
        }
        'rag-gate;baseline;help;help' {
            break
        }
        'rag-gate;ledger' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Write RESULTS.ledger.json: the parent''s ledger (beside --parent, checked) carried forward plus this run, per max-drift gate and slice (exit 2 on bad input)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rag-gate;ledger;record' {
            [CompletionResult]::new('--results', '--results', [CompletionResultType]::ParameterName, 'This main run''s per-query results (with its .protocol.json)')
            [CompletionResult]::new('--parent', '--parent', [CompletionResultType]::ParameterName, 'The parent commit''s stored results (from `baseline fetch`), with its ledger beside it')
            [CompletionResult]::new('--commit', '--commit', [CompletionResultType]::ParameterName, 'This run''s commit (default: GITHUB_SHA, on GitLab CI_COMMIT_SHA)')
            [CompletionResult]::new('--pr', '--pr', [CompletionResultType]::ParameterName, 'The pull request this commit merged (default: the forge''s record of the commit, else its message)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rag-gate;ledger;help' {
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Write RESULTS.ledger.json: the parent''s ledger (beside --parent, checked) carried forward plus this run, per max-drift gate and slice (exit 2 on bad input)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rag-gate;ledger;help;record' {
            break
        }
        'rag-gate;ledger;help;help' {
            break
        }
        'rag-gate;anchor' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Copy main''s stored results (FILE, its .protocol.json) to a new anchor with a record (ANCHOR.anchor.json: hash, commit, the ledger''s final state); never replaces silently')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rag-gate;anchor;write' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'main''s stored results (e.g. from `baseline fetch`), with .protocol.json beside them')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'The new anchor file (e.g. anchors/v1.5.jsonl)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The anchor''s name in reports (default: the file stem)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Replace an existing anchor file (otherwise an existing one is an error)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rag-gate;anchor;help' {
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Copy main''s stored results (FILE, its .protocol.json) to a new anchor with a record (ANCHOR.anchor.json: hash, commit, the ledger''s final state); never replaces silently')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rag-gate;anchor;help;write' {
            break
        }
        'rag-gate;anchor;help;help' {
            break
        }
        'rag-gate;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rag-gate;man' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour on stderr: auto (when stderr is a terminal and NO_COLOR is unset; CLICOLOR_FORCE forces it), always or never. Reports are never coloured')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the pages instead: each page''s name, then its command''s words')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No status lines ("report written to …") and no progress; warnings and errors still show')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also say what each step did (the inputs read, the bootstrap''s size, each HTTP retry)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rag-gate;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Judge a candidate against a baseline with the gates of a TOML gate file')
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'The same analysis without a gate file: deltas, intervals, win/tie/loss (exit 0)')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write a commented gate file from two per-query metric files: the metrics, the unit, the slices with their sizes, margins measured on the files (never overwrites a file)')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'How many queries (or groups) each gated metric × slice needs for its rule at a power, from the gate file''s own inputs: the units, an interval on them, today''s detectable drop')
            [CompletionResult]::new('label-plan', 'label-plan', [CompletionResultType]::ParameterValue, 'With [judge]: how many human-labelled queries (groups) each corrected gate needs at its margin and power, and the next batch to label (a seeded random sample, as JSON lines)')
            [CompletionResult]::new('partial', 'partial', [CompletionResultType]::ParameterValue, 'One shard''s summary for `merge`: the gate file (with `[bootstrap] weights = "keyed"`) read on a shard of both sides'' per-query results; each shard must hold whole groups')
            [CompletionResult]::new('merge', 'merge', [CompletionResultType]::ParameterValue, 'The report of the shards'' summaries added together: byte for byte the report `check` gives with the same gate file on the whole data (exit 0 pass, 1 a gate failed)')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Compute per-query metrics from a run and qrels (trec_eval-exact)')
            [CompletionResult]::new('aa', 'aa', [CompletionResultType]::ParameterValue, 'A/A: several runs of one commit → run-to-run noise, flaky queries, noise floor (exit 1 when the identical arms differ significantly: the instrument is broken)')
            [CompletionResult]::new('baseline', 'baseline', [CompletionResultType]::ParameterValue, 'The baseline: `baseline fetch` downloads main''s per-query results for the pull request''s merge-base from GitHub Actions, with a provenance file `check` reports')
            [CompletionResult]::new('ledger', 'ledger', [CompletionResultType]::ParameterValue, 'main''s ledger: `ledger record` appends this main run (its delta against its parent and against the anchor) to the ledger carried forward from the parent''s stored results')
            [CompletionResult]::new('anchor', 'anchor', [CompletionResultType]::ParameterValue, 'The approved anchor: `anchor write` makes a new anchor file from main''s stored results (reviewed re-anchoring: the new file is committed like any change)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the completion script for SHELL (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff) of rag-gate, or of COMMAND (`check`, `baseline fetch`, ...)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rag-gate;help;check' {
            break
        }
        'rag-gate;help;compare' {
            break
        }
        'rag-gate;help;init' {
            break
        }
        'rag-gate;help;plan' {
            break
        }
        'rag-gate;help;label-plan' {
            break
        }
        'rag-gate;help;partial' {
            break
        }
        'rag-gate;help;merge' {
            break
        }
        'rag-gate;help;eval' {
            break
        }
        'rag-gate;help;aa' {
            break
        }
        'rag-gate;help;baseline' {
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Download the artifact of the newest successful run of WORKFLOW on BRANCH for the merge-base (else the nearest older ancestor, up to 50 commits back) into DIR, unpacked safely, with `rag-gate-baseline.json` (commit, run, date, commits behind) beside it')
            break
        }
        'rag-gate;help;baseline;fetch' {
            break
        }
        'rag-gate;help;ledger' {
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Write RESULTS.ledger.json: the parent''s ledger (beside --parent, checked) carried forward plus this run, per max-drift gate and slice (exit 2 on bad input)')
            break
        }
        'rag-gate;help;ledger;record' {
            break
        }
        'rag-gate;help;anchor' {
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Copy main''s stored results (FILE, its .protocol.json) to a new anchor with a record (ANCHOR.anchor.json: hash, commit, the ledger''s final state); never replaces silently')
            break
        }
        'rag-gate;help;anchor;write' {
            break
        }
        'rag-gate;help;completions' {
            break
        }
        'rag-gate;help;man' {
            break
        }
        'rag-gate;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
