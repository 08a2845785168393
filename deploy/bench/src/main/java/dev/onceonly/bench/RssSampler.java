package dev.onceonly.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Samples a process's resident set ({@code VmRSS} of {@code /proc/<pid>/status}) on a daemon thread
 * and keeps the largest sample; {@code VmHWM} is the kernel's own peak since the process started.
 */
final class RssSampler implements AutoCloseable {

  private final Path status;
  private final long periodMillis;
  private final Thread thread;
  private volatile long maxRssKb;
  private volatile int samples;
  private volatile boolean running = true;

  RssSampler(long pid, long periodMillis) {
    this.status = Path.of("/proc", Long.toString(pid), "status");
    this.periodMillis = periodMillis;
    this.thread = new Thread(this::loop, "rss-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      long rss = readKb("VmRSS:");
      if (rss > 0) {
        maxRssKb = Math.max(maxRssKb, rss);
        samples++;
      }
      try {
        Thread.sleep(periodMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  double maxRssMb() {
    return maxRssKb / 1024.0;
  }

  double hwmMb() {
    return readKb("VmHWM:") / 1024.0;
  }

  int samples() {
    return samples;
  }

  /** One field of the status file in kB, or -1 when the process is gone. */
  long readKb(String field) {
    try {
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith(field)) {
          return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(2_000);
  }
}
