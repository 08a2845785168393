package dev.onceonly.it.shipping;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.testsupport.PublicApi;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The shipping service is written against the extension's public API alone. */
class PublicApiOnlyTest {

  @Test
  void theServiceUsesNoInternalPackageOfThePlatform() {
    assertThat(PublicApi.internalReferences(Path.of("src/main/java"))).isEmpty();
  }
}
