import ArgumentParser

/// `--out FILE`, which every `lsclient load` scenario takes (LoadRunFile).
struct LoadOutputOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Also write the run to FILE: its settings, report, second-by-second series and latency histogram.",
            discussion: "JSON, which `lsclient load plot` and `load compare` read; the latency percentiles also go "
                + "to FILE's name with .hgrm, the HdrHistogram percentile format.",
            valueName: "FILE"))
    var out: String?
}
