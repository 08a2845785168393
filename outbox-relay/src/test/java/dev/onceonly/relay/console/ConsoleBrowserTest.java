package dev.onceonly.relay.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.onceonly.relay.support.Browser;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The console in a real headless Chromium, logged in the way a browser does it: HTTP Basic
 * credentials cached by the browser (given once in the URL, as a person types them into the login
 * prompt) and sent again by the browser itself, for pages and for the script's requests alike.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class ConsoleBrowserTest {

  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

  @TestHTTPResource("/")
  URI base;

  private final String prefix = OutboxRows.uniquePrefix("browser");
  private Browser browser;

  @BeforeEach
  void startBrowser() {
    ProviderStub.get();
    browser = Browser.start();
  }

  @AfterEach
  void stopBrowser() {
    browser.close();
    OutboxRows.deleteKeysStartingWith(prefix);
  }

  @Test
  void viewerSeesADeadRowAndItsAttemptsButNoAction() {
    long dead = deadRowWithTwoAttempts("viewer");
    WebDriver page = browser.driver();

    page.get(url("viewer", "viewer-secret", "/console"));
    assertThat(page.findElement(By.id("who")).getText()).contains("viewer");
    WebElement row = page.findElement(By.cssSelector("#dead-rows tr[data-row-id='" + dead + "']"));
    assertThat(row.getText()).contains("order-completed:" + prefix + "viewer");
    row.findElement(By.linkText(Long.toString(dead))).click();

    assertThat(page.findElement(By.id("row-status")).getText()).isEqualTo("dead");
    assertThat(page.findElement(By.id("row-trace")).getText()).isEqualTo(TRACE);
    List<WebElement> attempts = page.findElements(By.cssSelector("#attempts tbody tr"));
    assertThat(attempts).hasSize(2);
    assertThat(attempts.get(0).getText()).contains("retry", "503", "provider busy", TRACE);
    assertThat(attempts.get(1).getText()).contains("dead", "422", "card declined");
    assertThat(page.findElement(By.id("payload")).getText())
        .contains("\"customerEmail\" : \"***\"")
        .doesNotContain("@example.com");
    assertThat(page.findElements(By.cssSelector("button[data-action]"))).isEmpty();
    assertThat(page.findElements(By.id("replay-form"))).isEmpty();
  }

  @Test
  void adminRetriesADeadRowAndSeesItDelivered() {
    long dead = deadRowWithTwoAttempts("admin");
    WebDriver page = browser.driver();

    page.get(url("admin", "admin-secret", "/console/rows/" + dead));
    assertThat(page.findElement(By.id("row-status")).getText()).isEqualTo("dead");
    page.findElement(By.cssSelector("button[data-action='retry']")).click();

    Awaitility.await()
        .pollInSameThread()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(30))
        .until(() -> "delivered".equals(page.findElement(By.id("row-status")).getText()));
    assertThat(page.findElements(By.cssSelector("#attempts tbody tr"))).hasSize(3);
    assertThat(OutboxRows.status(dead)).isEqualTo("delivered");

    page.findElement(By.linkText("Audit")).click();
    WebElement newest = page.findElement(By.cssSelector("#audit tbody tr"));
    assertThat(newest.getText()).contains("admin", "retry", Long.toString(dead));
  }

  @Test
  void adminReplaysOnlyAfterSeeingWhatTheDryRunSelected() {
    String orderingKey = prefix + "customer";
    long first = OutboxRows.insertAs(OutboxRows.receipt(prefix + "r1", orderingKey), "dead");
    long second = OutboxRows.insertAs(OutboxRows.receipt(prefix + "r2", orderingKey), "dead");
    WebDriver page = browser.driver();

    page.get(url("admin", "admin-secret", "/console"));
    page.findElement(By.cssSelector("select[name='destination'] option[value='send_receipt']"))
        .click();
    page.findElement(By.name("orderingKey")).sendKeys(orderingKey);
    page.findElement(By.id("replay-dry-run")).click();

    Awaitility.await()
        .pollInSameThread()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(10))
        .until(() -> page.findElement(By.id("replay-summary")).isDisplayed());
    assertThat(page.findElement(By.id("replay-summary")).getText())
        .contains("2 dead rows match; 2 would be replayed", first + ", " + second);
    assertThat(OutboxRows.status(first)).isEqualTo("dead");
    WebElement confirm = page.findElement(By.id("replay-confirm"));
    assertThat(confirm.getText()).isEqualTo("Replay these 2 rows");
    confirm.click();

    Awaitility.await()
        .pollInSameThread()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(10))
        .until(() -> page.findElement(By.id("replay-result")).getText().startsWith("Replayed 2"));
    Awaitility.await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                OutboxRows.status(first).equals("delivered")
                    && OutboxRows.status(second).equals("delivered"));
  }

  @Test
  void theConfirmReplaysTheRowsTheDryRunListedEvenWhenAnotherRowDiedSince() {
    String orderingKey = prefix + "customer";
    // The oldest row of the key is still on its way during the dry run and dies before the confirm.
    long diesLater =
        OutboxRows.insertAs(OutboxRows.receipt(prefix + "r0", orderingKey), "pending", 3600);
    long first = OutboxRows.insertAs(OutboxRows.receipt(prefix + "r1", orderingKey), "dead");
    long second = OutboxRows.insertAs(OutboxRows.receipt(prefix + "r2", orderingKey), "dead");
    WebDriver page = browser.driver();

    page.get(url("admin", "admin-secret", "/console"));
    page.findElement(By.name("orderingKey")).sendKeys(orderingKey);
    page.findElement(By.id("replay-dry-run")).click();
    Awaitility.await()
        .pollInSameThread()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(10))
        .until(() -> page.findElement(By.id("replay-summary")).isDisplayed());
    assertThat(page.findElement(By.id("replay-summary")).getText())
        .contains("2 dead rows match; 2 would be replayed", first + ", " + second);
    OutboxRows.longs("UPDATE outbox.outbox SET status = 'dead' WHERE id = ?", diesLater);
    page.findElement(By.id("replay-confirm")).click();

    Awaitility.await()
        .pollInSameThread()
        .ignoreExceptions()
        .atMost(Duration.ofSeconds(10))
        .until(() -> page.findElement(By.id("replay-result")).getText().startsWith("Replayed 2"));
    assertThat(OutboxRows.status(diesLater)).isEqualTo("dead");
    // Both replayed, and waiting behind the dead row of their key.
    assertThat(OutboxRows.status(first)).isEqualTo("pending");
    assertThat(OutboxRows.status(second)).isEqualTo("pending");
  }

  @Test
  void anonymousVisitorIsRefused() {
    long dead = deadRowWithTwoAttempts("anonymous");
    WebDriver page = browser.driver();

    page.get(base.resolve("/console/rows/" + dead).toString());

    // The browser got a login challenge instead of the page: it shows nothing of the row ...
    assertThat(page.getPageSource()).doesNotContain("card declined").doesNotContain(prefix);
    assertThat(page.findElements(By.id("row-status"))).isEmpty();
    // ... because the same request from this browser, which holds no login, is answered 401 with a
    // problem and the challenge that makes a browser ask for one (asked from an open page).
    page.get(base.resolve("/favicon.ico").toString()); // any page of the relay that needs no login
    Object answer =
        ((JavascriptExecutor) page)
            .executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                    + "fetch('/console/rows/"
                    + dead
                    + "', {credentials: 'omit'}).then(r => r.json().then(p =>"
                    + " done(r.status + ' ' + r.headers.get('WWW-Authenticate') + ' ' + p.detail)));");
    // (Quarkus answers a script's request with a bare "basic" challenge, so that no prompt opens.)
    assertThat(answer.toString().toLowerCase(Locale.ROOT))
        .startsWith("401 basic")
        .endsWith("log in (http basic or an oidc bearer token)");
  }

  @Test
  void aPageOfAnotherSiteCannotMakeTheAdminsBrowserRetry() throws IOException {
    long dead = deadRowWithTwoAttempts("csrf");
    WebDriver page = browser.driver();
    page.get(url("admin", "admin-secret", "/console")); // the browser now holds the admin's login
    String form =
        "<!DOCTYPE html><form id=f method=post action='"
            + base.resolve("/outbox/" + dead + "/retry")
            + "'></form><script>document.getElementById('f').submit()</script>";
    HttpServer elsewhere = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    elsewhere.createContext(
        "/",
        exchange -> {
          byte[] body = form.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "text/html");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    elsewhere.start();
    try {
      page.get("http://localhost:" + elsewhere.getAddress().getPort() + "/");
      Awaitility.await()
          .pollInSameThread()
          .ignoreExceptions()
          .atMost(Duration.ofSeconds(10))
          .until(() -> page.getPageSource().contains("may not change anything here"));
    } finally {
      elsewhere.stop(0);
    }
    assertThat(OutboxRows.status(dead)).isEqualTo("dead");
  }

  /**
   * A destination's hour as recorded attempts: delivering 3 a minute, then an outage of ten minutes
   * failing 5 a minute, then a recovery delivering 6 a minute. The chart draws it.
   */
  @Test
  void eachDestinationsLastHourIsDrawnSoAnOutageAndItsRecoveryShowAsAShape() {
    String destination = "chart_" + prefix.replaceAll("[^a-z0-9]", "");
    long id =
        OutboxRows.insertAs(
            new OutboxRows.NewRow(destination, "{}", prefix + "chart", null), "delivered");
    int attempt = 0;
    for (int minute = 50; minute > 40; minute--) {
      for (int i = 0; i < 3; i++) {
        OutboxRows.insertAttemptAt(id, ++attempt, destination, "delivered", minute);
      }
    }
    for (int minute = 40; minute > 30; minute--) {
      for (int i = 0; i < 5; i++) {
        OutboxRows.insertAttemptAt(id, ++attempt, destination, i == 0 ? "dead" : "retry", minute);
      }
    }
    for (int minute = 30; minute > 20; minute--) {
      for (int i = 0; i < 6; i++) {
        OutboxRows.insertAttemptAt(id, ++attempt, destination, "delivered", minute);
      }
    }
    WebDriver page = browser.driver();

    page.get(url("viewer", "viewer-secret", "/console"));

    WebElement row =
        page.findElement(
            By.cssSelector("#destinations tr[data-destination='" + destination + "']"));
    assertThat(row.getText()).contains(destination, "not configured here");
    WebElement chart = row.findElement(By.cssSelector("svg.chart"));
    assertThat(chart.isDisplayed()).isTrue();
    assertThat(chart.getSize().getWidth()).isEqualTo(240);
    assertThat(chart.getAttribute("data-delivered")).isEqualTo("90");
    assertThat(chart.getAttribute("data-failed")).isEqualTo("50");
    assertThat(chart.getAttribute("aria-label"))
        .isEqualTo("90 delivered and 50 failed in the last hour, at most 6 a minute");
    double[] delivered = heights(chart, "line-delivered");
    double[] failed = heights(chart, "line-failed");
    assertThat(delivered).hasSize(60);
    // Minute n ago is point 59 - n: deliveries before and after the outage, failures during it.
    for (int point = 0; point < 60; point++) {
      int minutesAgo = 59 - point;
      boolean before = minutesAgo > 40 && minutesAgo <= 50;
      boolean outage = minutesAgo > 30 && minutesAgo <= 40;
      boolean after = minutesAgo > 20 && minutesAgo <= 30;
      assertThat(delivered[point])
          .as("deliveries %d minutes ago", minutesAgo)
          .isEqualTo(before ? 3 : after ? 6 : 0, org.assertj.core.data.Offset.offset(0.1));
      assertThat(failed[point])
          .as("failures %d minutes ago", minutesAgo)
          .isEqualTo(outage ? 5 : 0, org.assertj.core.data.Offset.offset(0.1));
    }
  }

  /**
   * The values a line of the chart draws, read back from its points as the browser laid them out
   * (the chart is 48 high and its top, 2 from the edge, is the largest value: 6 here).
   */
  private static double[] heights(WebElement chart, String line) {
    String points = chart.findElement(By.cssSelector("polyline." + line)).getAttribute("points");
    String[] pairs = points.trim().split("\\s+");
    double[] values = new double[pairs.length];
    for (int i = 0; i < pairs.length; i++) {
      double y = Double.parseDouble(pairs[i].split(",")[1]);
      values[i] = (46 - y) / 44 * 6;
    }
    return values;
  }

  /** A dead receipt row, traced, after a 503 and a 422. */
  private long deadRowWithTwoAttempts(String name) {
    String payload =
        "{\"orderId\":\"" + prefix + name + "\",\"customerEmail\":\"ann@example.com\"}";
    long id =
        OutboxRows.insertAs(
            new OutboxRows.NewRow("send_receipt", payload, prefix + name, null), "dead");
    OutboxRows.sourceOf(id, "receipts", "order-completed:" + prefix + name);
    OutboxRows.traceRow(id, "00-" + TRACE + "-00f067aa0ba902b7-01");
    OutboxRows.insertAttempt(
        id, 1, "retry", 503, "provider busy", "00-" + TRACE + "-b7ad6b7169203331-01");
    OutboxRows.insertAttempt(id, 2, "dead", 422, "card declined", null);
    return id;
  }

  private String url(String user, String password, String path) {
    return base.getScheme()
        + "://"
        + user
        + ":"
        + password
        + "@"
        + base.getHost()
        + ":"
        + base.getPort()
        + path;
  }
}
