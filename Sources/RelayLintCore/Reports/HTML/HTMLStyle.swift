/// The HTML report's stylesheet, inlined so that the report is one self-contained file: it
/// loads no font, image or script, reads the same offline, and prints to PDF compactly (light
/// backgrounds only; sections follow one another without forced page breaks, which left pages
/// nearly empty; no finding, table row or heading left alone at the bottom of a page).
/// Identifiers keep their spaces and line breaks (`white-space: pre-wrap`), so an odd value in
/// the data looks odd in the report too.
enum HTMLStyle {
    /// Severity colours, shared with the charts so a bar has the colour of its badge.
    static func color(of severity: Severity) -> String {
        switch severity {
        case .error: "#b42318"
        case .warning: "#9a6700"
        case .note: "#0b5cad"
        }
    }

    /// The colour of the event columns.
    static let eventColor = "#4f6d8f"

    static let css = """
        :root { color-scheme: light; }
        * { box-sizing: border-box; }
        html { background: #ffffff; }
        body { margin: 0; color: #1f2328; background: #ffffff;
          font: 14px/1.5 "DejaVu Sans", -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
        main { max-width: 1060px; margin: 0 auto; padding: 32px 40px 48px; }
        h1 { font-size: 26px; line-height: 1.25; margin: 0 0 16px; }
        h2 { font-size: 20px; margin: 36px 0 12px; padding-bottom: 6px; border-bottom: 2px solid #d0d7de; }
        h3 { font-size: 16px; margin: 24px 0 8px; }
        h4 { font-size: 14px; margin: 0 0 8px; }
        p { margin: 6px 0 10px; }
        a { color: #0b5cad; }
        code, .mono { font-family: "DejaVu Sans Mono", ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em;
          overflow-wrap: anywhere; unicode-bidi: isolate; white-space: pre-wrap; }
        .hash { font-size: 0.8em; word-break: break-all; }
        .muted { color: #57606a; }
        .prose { white-space: pre-line; }
        .kicker { margin: 0 0 4px; color: #57606a; font-size: 13px; letter-spacing: 0.04em; text-transform: uppercase; }
        header.report { border-bottom: 3px solid #1f2328; padding-bottom: 16px; }
        table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; }
        th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid #d8dee4; }
        thead th { border-bottom: 2px solid #afb8c1; background: #f6f8fa; font-size: 12px; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        td.nowrap, td.nowrap code { white-space: nowrap; }
        td.path { min-width: 15em; }
        table.facts { width: auto; min-width: 60%; }
        table.facts ul { margin: 0; padding-left: 18px; }
        td.hash code { display: inline-block; width: 33ch; font-size: 0.8em; word-break: break-all; }
        table.facts th { width: 11em; font-weight: 600; color: #424a53; background: none; border-bottom: 1px solid #d8dee4; }
        .figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(96px, 1fr)); gap: 8px; margin: 12px 0 18px; }
        .figure { border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 10px; }
        .figure .value { display: block; font-size: 22px; font-weight: 700; line-height: 1.2; }
        .figure .label { display: block; font-size: 12px; color: #57606a; }
        .badge { display: inline-block; padding: 0 7px; border-radius: 10px; font-size: 12px; font-weight: 700;
          border: 1px solid currentColor; background: #ffffff; white-space: nowrap; }
        .badge.error { color: #b42318; background: #fff1f0; }
        .badge.warning { color: #9a6700; background: #fff8e1; }
        .badge.note { color: #0b5cad; background: #eef6ff; }
        .badge.pass { color: #1a7f37; background: #effaf1; }
        .badge.suppressed { color: #57606a; background: #f6f8fa; margin-left: 4px; }
        figure { margin: 12px 0 20px; }
        figcaption { font-size: 12px; color: #57606a; margin-top: 4px; }
        svg.chart { display: block; width: 100%; max-width: 720px; height: auto; }
        nav.contents ol { margin: 4px 0; padding-left: 22px; columns: 2; column-gap: 32px; }
        nav.contents li { break-inside: avoid; }
        section.rule, section.appendix { margin-top: 56px; }
        section.rule > header { margin-bottom: 8px; }
        section.rule > header h2 { margin: 0 0 4px; }
        section.rule > header .kicker { margin-bottom: 2px; }
        .rule-meta { margin: 0 0 12px; color: #424a53; }
        .rule-meta code { margin-right: 6px; }
        article.finding { border: 1px solid #d0d7de; border-left: 4px solid #b42318; border-radius: 6px;
          padding: 12px 16px 4px; margin: 14px 0; }
        article.finding.warning { border-left-color: #9a6700; }
        article.finding.note { border-left-color: #0b5cad; }
        article.finding.suppressed { border-left-color: #afb8c1; }
        article.finding .acceptance { color: #424a53; }
        table.suppressions tr:first-child td { border-bottom: none; }
        table.suppressions tr.justification td { padding-top: 0; color: #424a53; }
        article.finding .message { font-weight: 600; }
        dl.finding-facts { display: grid; grid-template-columns: max-content minmax(0, 1fr) max-content minmax(0, 1fr);
          gap: 3px 14px; margin: 8px 0 12px; font-size: 13px; }
        dl.finding-facts dt { font-weight: 600; color: #424a53; }
        dl.finding-facts dd { margin: 0; }
        dl.finding-facts dd.wide { grid-column: 2 / -1; }
        table.evidence { font-size: 12.5px; }
        table.evidence td code { overflow-wrap: break-word; }
        table.evidence caption { caption-side: top; text-align: left; font-weight: 600; font-size: 12px; color: #424a53;
          padding-bottom: 4px; }
        table.evidence tr.trigger td { background: #fff8f7; font-weight: 600; }
        footer.report { margin-top: 40px; padding-top: 12px; border-top: 3px solid #1f2328; font-size: 13px; }
        .signoff { display: flex; gap: 32px; margin-top: 64px; }
        .signoff div { flex: 1; border-top: 1px solid #1f2328; padding-top: 4px; font-size: 12px; color: #424a53; }
        @page { size: A4; margin: 16mm 14mm 18mm; }
        @media print {
          html, body { background: #ffffff; color: #000000; font-size: 10pt; }
          main { max-width: none; padding: 0; }
          a { color: #000000; text-decoration: none; }
          a.external::after { content: " (" attr(href) ")"; font-size: 8pt; color: #424a53; overflow-wrap: anywhere; }
          h2 { margin-top: 18px; }
          section.rule, section.appendix, section#summary { margin-top: 28px; }
          th, td { padding: 3px 6px; }
          article.finding { margin: 10px 0; padding: 8px 12px 2px; }
          .figures { grid-template-columns: repeat(5, 1fr); }
          table.evidence { font-size: 8.5pt; }
          p, li, dd { orphans: 3; widows: 3; }
          h2, h3, h4, caption, figcaption, .kicker, section.rule > header, nav.contents { break-after: avoid; }
          article.finding, figure, tr, .figures, .signoff, table.suppressions tbody, section.rule > header,
          dl.finding-facts { break-inside: avoid; }
          thead { display: table-header-group; }
          thead th, .badge, table.evidence tr.trigger td { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        }
        """
}
