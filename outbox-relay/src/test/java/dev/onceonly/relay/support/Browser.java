package dev.onceonly.relay.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium driven through chromedriver, with a profile of its own, for one test. It
 * uses the distribution's packages ({@code /usr/bin/chromium}, {@code /usr/bin/chromedriver}, or
 * {@code CHROMIUM} and {@code CHROMEDRIVER} from the environment) and downloads nothing.
 */
public final class Browser implements AutoCloseable {

  private final ChromeDriver driver;
  private final Path profile;

  private Browser(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
  }

  /** Starts a browser, or fails saying what to install. */
  public static Browser start() {
    Path chromium = Path.of(env("CHROMIUM", "/usr/bin/chromium"));
    Path chromedriver = Path.of(env("CHROMEDRIVER", "/usr/bin/chromedriver"));
    if (!Files.isExecutable(chromium) || !Files.isExecutable(chromedriver)) {
      throw new IllegalStateException(
          "the console's browser tests need a headless Chromium and its driver, missing: "
              + (Files.isExecutable(chromium) ? "" : chromium + " ")
              + (Files.isExecutable(chromedriver) ? "" : chromedriver)
              + ". Install them: apt-get install chromium chromium-driver (or set CHROMIUM and"
              + " CHROMEDRIVER to their paths)");
    }
    Path profile;
    try {
      profile = Files.createTempDirectory("onceonly-console-chromium-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1000",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(chromedriver.toFile())
            .usingAnyFreePort()
            .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    return new Browser(driver, profile);
  }

  public ChromeDriver driver() {
    return driver;
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // a temporary profile left behind is harmless
      }
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
