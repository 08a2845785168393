# Sourced by consumer-bench.sh and relay-bench.sh: the report's verdicts, judged on figures as
# measured. Rounded first, a relay or consumer that peaked at 256.3 MB of RSS read "256 MB, PASS".

# largest <name>=<value>...: prints "<value> <name>" of the largest value; nothing if none is given.
largest() {
  [[ $# -gt 0 ]] || return 0
  printf '%s\n' "$@" | awk '{ i = index($0, "="); n = substr($0, 1, i - 1); v = substr($0, i + 1) + 0 }
    NR == 1 || v > m { m = v; w = n } END { printf "%s %s\n", m, w }'
}

# verdict <awk condition>: PASS or MISS.
verdict() { awk "BEGIN { print ($1) ? \"PASS\" : \"MISS\" }"; }

# cores: "2 cores (AMD EPYC, 2596 MHz)". On the same 2-core machine kind the CPU per message has
# differed by 2.5 x from one day to the next, so every report names the CPU it ran on.
cores() {
  awk -F': *' -v n="$(nproc)" '/^model name/ && !m { m = $2 } /^cpu MHz/ && !f { f = $2 }
    END { printf "%d cores (%s, %.0f MHz)\n", n, (m == "" ? "?" : m), f }' /proc/cpuinfo
}
