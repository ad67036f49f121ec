//! The HTML report's inline style sheet (GitHub-like colours and type).

pub(super) const CSS: &str = r#"
body{margin:0;background:#f6f8fa;color:#1f2328;font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif}
main{max-width:900px;margin:0 auto;padding:24px;background:#fff}
h1{font-size:20px;margin:0 0 8px;padding:10px 14px;border-radius:6px}
h1.fail{background:#ffebe9;border:1px solid #ff8182}
h1.pass{background:#dafbe1;border:1px solid #4ac26b}
h1.inconclusive{background:#fff1d6;border:1px solid #d4a72c}
h2{font-size:17px;border-bottom:1px solid #d1d9e0;padding-bottom:4px;margin-top:28px}
h3{font-size:14px;margin:16px 0 4px}
.facts,.legend{color:#59636e;margin:4px 0 12px}
code{font:12px ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;background:#eff1f3;padding:1px 4px;border-radius:4px;white-space:nowrap}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{border:1px solid #d1d9e0;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.failing td{background:#ffebe9}
td.l-worse{color:#cf222e;font-weight:600}
td.l-better{color:#1a7f37;font-weight:600}
svg.forest{display:block;max-width:100%;height:auto;font-size:12px}
svg .zero{stroke:#1f2328;stroke-width:1.5}
svg .axis line{stroke:#8c959f}
svg .axis text{fill:#59636e;font-size:11px}
svg .band{fill:#f6f8fa}
svg .margin{stroke:#bf8700;stroke-width:2;stroke-dasharray:3 2}
svg .ci{stroke:#59636e;stroke-width:2}
svg .mark{fill:#fff;stroke:#59636e;stroke-width:1.5}
svg .gated .ci{stroke:#0969da}
svg .gated .mark{fill:#0969da;stroke:#0969da}
svg .failing .ci{stroke:#cf222e;stroke-width:3}
svg .failing .mark{fill:#cf222e;stroke:#cf222e}
svg .failing .label{fill:#cf222e;font-weight:600}
svg .label{fill:#1f2328}
svg .value{fill:#59636e;font-variant-numeric:tabular-nums}
.k-gated{color:#0969da}.k-failing{color:#cf222e}
td.nowrap{white-space:nowrap}
"#;
