// The settings the tactics suite (tests/data/tactics.csv) was found with: its generator
// (examples/tactics_suite.rs) and its test (tests/tactics.rs) include this one file, so the
// test checks the rows with what wrote them.

/// Attacker moves a proof of the suite may take.
const DEPTH: u32 = 10;

/// The probe the `tree` rows were found with.
const SUITE_PROBE: ThreatConfig = ThreatConfig {
    depth: 10,
    budget: 400,
    root_budget: 200_000,
    min_depth: 1,
    table_mb: 32,
    reply_budget: 0,
    vcf_depth: 0,
    fours_first: false,
};
