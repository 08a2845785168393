package dev.onceonly.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a command (pgbench) with its output passed through and writes who used the CPU meanwhile, as
 * {@code cpu_<group>_pct=} lines, to a file: {@code CpuWatch <out-file> <command...>}. Exits with
 * the command's exit code.
 */
public final class CpuWatch {

  private CpuWatch() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length < 2) {
      throw new IllegalArgumentException("usage: CpuWatch <out-file> <command...>");
    }
    CpuGroups cpu = new CpuGroups(0);
    cpu.start();
    Process process =
        new ProcessBuilder(Arrays.copyOfRange(args, 1, args.length)).inheritIO().start();
    int exit = process.waitFor();
    Thread.sleep(200); // let the postmaster reap the command's backends, whose time it then holds
    Map<String, Double> pct = cpu.stop();
    try (PrintStream out = new PrintStream(Files.newOutputStream(Path.of(args[0])))) {
      pct.forEach((group, p) -> out.printf(Locale.ROOT, "cpu_%s_pct=%.2f%n", group, p));
      out.println("cores=" + CpuGroups.cores());
    }
    System.exit(exit);
  }
}
