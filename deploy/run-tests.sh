#!/usr/bin/env bash
# OnceOnly's tests on this machine, from a fresh one: the README's second command, and what CI runs.
#
# 1. Checks the tools the build cannot install: a JDK 17 or later, and kubectl 1.27 or later (it
#    renders the Kubernetes overlays).
# 2. Installs what the tests call and Debian packages: promtool (package prometheus), Chromium and
#    its driver (chromium, chromium-driver) for the console's browser test. apt-get as root, or
#    through password-less sudo; a failed install is tried again after apt-get update.
# 3. Without a Docker engine (the tests then use this machine's services): starts PostgreSQL and
#    RabbitMQ if they are down and creates the test databases.
# 4. Runs ./mvnw -B verify, with any arguments given appended (e.g. -pl outbox-relay -am).
# A tool that is missing and cannot be installed stops it with an error naming the tool, before
# Maven starts.
#
# Usage: deploy/run-tests.sh [maven arguments...]
# Environment: CHROMIUM, CHROMEDRIVER (paths, instead of the packages' /usr/bin/chromium and
#   /usr/bin/chromedriver), ONCEONLY_TEST_SUFFIX (test databases get _<suffix>).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

log() { printf '[run-tests] %s\n' "$*"; }
die() {
  printf '[run-tests] %s\n' "$@" >&2
  exit 1
}
have() { command -v "$1" >/dev/null 2>&1; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for_port() { # <port> <name> <how it was started>
  for _ in $(seq 1 60); do
    port_open "$1" && return 0
    sleep 1
  done
  die "$2 did not open port $1 within 60 s after: $3"
}

# --- 1. what cannot be installed here -----------------------------------------------------------
have java || die "java is not installed: the build needs a JDK 17 or later (Debian: openjdk-17-jdk-headless)."
have javac || die "javac is not installed: java is a runtime only; the build needs a JDK 17 or later (Debian: openjdk-17-jdk-headless)."
java_major=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
[[ ${java_major:-0} -ge 17 ]] ||
  die "java is version ${java_major:-unknown}: the build needs a JDK 17 or later."
have kubectl || die "kubectl is not installed: deploy/k8s/verify renders the Kubernetes overlays with it (1.27 or later, which has kustomize v5)." \
  "Debian has no current package for it: install it from https://kubernetes.io/docs/tasks/tools/ and run deploy/run-tests.sh again."
kubectl_minor=$(kubectl version --client 2>/dev/null | sed -n 's/^Client Version: v1\.\([0-9]*\).*/\1/p' | head -n 1)
[[ ${kubectl_minor:-0} -ge 27 ]] ||
  die "kubectl is version 1.${kubectl_minor:-unknown}: deploy/k8s/verify needs 1.27 or later (kustomize v5)."

# --- 2. what the tests call, from Debian's packages ------------------------------------------------
# tool -> package; CHROMIUM / CHROMEDRIVER name a browser elsewhere (the test reads the same names).
missing_tools=()
missing_packages=()
need() { # <tool> <package> [path given in the environment]
  if [[ -n ${3:-} ]]; then
    [[ -x $3 ]] || die "$1 is set to '$3', which is not an executable file."
    return 0
  fi
  have "$1" && return 0
  missing_tools+=("$1")
  missing_packages+=("$2")
}
need promtool prometheus
need chromium chromium "${CHROMIUM:-}"
need chromedriver chromium-driver "${CHROMEDRIVER:-}"

if [[ ${#missing_tools[@]} -gt 0 ]]; then
  what="${missing_tools[*]} (Debian packages: ${missing_packages[*]})"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if have sudo && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      die "missing: $what." "They cannot be installed from here: not root, and no password-less sudo." \
        "Install them (apt-get install ${missing_packages[*]}) and run deploy/run-tests.sh again."
    fi
  fi
  have apt-get || die "missing: $what." "They cannot be installed from here: no apt-get on this machine." \
    "Install them by other means and run deploy/run-tests.sh again."
  apt_log=$(mktemp)
  trap 'rm -f "$apt_log"' EXIT
  install() {
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -q --no-install-recommends "${missing_packages[@]}" >>"$apt_log" 2>&1
  }
  log "installing ${missing_packages[*]} for ${missing_tools[*]}"
  if ! install; then
    log "apt-get install failed; apt-get update, then once more"
    if ! { "${sudo[@]}" apt-get update -q >>"$apt_log" 2>&1 && install; }; then
      tail -n 15 "$apt_log" | sed 's/^/    /' >&2
      die "missing: $what, and apt-get could not install them (its last lines above)." \
        "Install them and run deploy/run-tests.sh again."
    fi
  fi
  rm -f "$apt_log"
  trap - EXIT
  for tool in "${missing_tools[@]}"; do
    have "$tool" || die "apt-get installed ${missing_packages[*]}, but $tool is still not on PATH ($PATH)."
  done
fi
# The browser test looks in /usr/bin unless told: tell it where PATH found them.
export CHROMIUM=${CHROMIUM:-$(command -v chromium)}
export CHROMEDRIVER=${CHROMEDRIVER:-$(command -v chromedriver)}

# --- 3. PostgreSQL and RabbitMQ ------------------------------------------------------------------
if have docker && docker info >/dev/null 2>&1; then
  log "Docker engine found: the tests start PostgreSQL and RabbitMQ with Testcontainers"
else
  log "no Docker engine: the tests use this machine's PostgreSQL (127.0.0.1:5432) and RabbitMQ (127.0.0.1:5672)"
  have psql || die "psql is not installed: the tests' databases are created with it (Debian: postgresql-client)."
  if ! port_open 5432; then
    have pg_ctlcluster || die "PostgreSQL is not running on 127.0.0.1:5432 and pg_ctlcluster is not installed to start it (Debian: postgresql)."
    version=$(ls /etc/postgresql 2>/dev/null | head -n 1)
    [[ -n $version ]] || die "PostgreSQL is not running on 127.0.0.1:5432 and /etc/postgresql holds no cluster to start."
    log "starting PostgreSQL $version"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start ||
      die "PostgreSQL is not running on 127.0.0.1:5432 and 'pg_ctlcluster $version main start' failed."
    wait_for_port 5432 PostgreSQL "pg_ctlcluster $version main start"
  fi
  if ! port_open 5672; then
    have rabbitmq-server || die "RabbitMQ is not running on 127.0.0.1:5672 and rabbitmq-server is not installed to start it (Debian: rabbitmq-server)."
    log "starting RabbitMQ"
    rabbitmq-server -detached || die "RabbitMQ is not running on 127.0.0.1:5672 and 'rabbitmq-server -detached' failed."
    wait_for_port 5672 RabbitMQ "rabbitmq-server -detached"
  fi
  psql -h 127.0.0.1 -U postgres -d postgres -Atqc 'SELECT 1' >/dev/null ||
    die "PostgreSQL on 127.0.0.1:5432 does not let user postgres in without a password (the tests log in so: trust auth)."
  # The test resources create their databases when missing too; doing it here shows a permission
  # problem before Maven starts.
  [[ ${ONCEONLY_TEST_SUFFIX:-x} =~ ^[A-Za-z0-9_]+$ ]] ||
    die "ONCEONLY_TEST_SUFFIX may hold letters, digits and underscores only, was '$ONCEONLY_TEST_SUFFIX'."
  suffix=${ONCEONLY_TEST_SUFFIX:+_${ONCEONLY_TEST_SUFFIX,,}}
  for db in onceonly_consumer_test onceonly_relay_test; do
    db=$db$suffix
    if [[ -z $(psql -h 127.0.0.1 -U postgres -d postgres -Atqc "SELECT 1 FROM pg_database WHERE datname = '$db'") ]]; then
      log "creating database $db"
      psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE $db" || die "could not create database $db."
    fi
  done
fi

# --- 4. the build --------------------------------------------------------------------------------
log "./mvnw -B verify $*"
exec ./mvnw -B verify "$@"
