package dev.onceonly.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CrossSiteGuardTest {

  private static final List<String> HOST = List.of("relay.example:8081");

  @Test
  void aPageOfTheSameOriginMayChangeThings() {
    assertThat(CrossSiteGuard.refusal("same-origin", "https://relay.example:8081", null, HOST))
        .isEmpty();
    assertThat(CrossSiteGuard.refusal(null, null, "http://relay.example:8081/console", HOST))
        .isEmpty();
  }

  @Test
  void clientsThatAreNotBrowsersNameNoOriginAndAreNotAffected() {
    assertThat(CrossSiteGuard.refusal(null, null, null, HOST)).isEmpty();
    assertThat(CrossSiteGuard.refusal("none", null, null, HOST)).isEmpty();
  }

  @Test
  void anotherOriginIsRefusedWhicheverHeaderNamesIt() {
    assertThat(CrossSiteGuard.refusal(null, "https://evil.example", null, HOST))
        .get()
        .asString()
        .contains("another origin (https://evil.example)");
    assertThat(CrossSiteGuard.refusal(null, null, "https://evil.example/page", HOST)).isPresent();
    assertThat(CrossSiteGuard.refusal("cross-site", null, null, HOST)).isPresent();
    // another port of the same host is another origin, though the same site
    assertThat(CrossSiteGuard.refusal("same-site", null, null, HOST)).isPresent();
    assertThat(CrossSiteGuard.refusal(null, "https://relay.example:9999", null, HOST)).isPresent();
  }

  @Test
  void anOpaqueOriginIsRefused() {
    assertThat(CrossSiteGuard.refusal(null, "null", null, HOST)).isPresent();
    assertThat(CrossSiteGuard.refusal(null, "not a url at all", null, HOST)).isPresent();
  }

  @Test
  void behindAProxyTheForwardedHostCountsToo() {
    List<String> hosts = List.of("relay-internal:8081", "ops.example.com");
    assertThat(CrossSiteGuard.refusal(null, "https://ops.example.com", null, hosts)).isEmpty();
  }
}
