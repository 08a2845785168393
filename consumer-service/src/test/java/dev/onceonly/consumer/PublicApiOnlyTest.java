package dev.onceonly.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.testsupport.PublicApi;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The loyalty example is built on the extension's public API alone (dev.onceonly.api). */
class PublicApiOnlyTest {

  @Test
  void theServiceUsesNoInternalPackageOfThePlatform() {
    assertThat(PublicApi.internalReferences(Path.of("src/main/java"))).isEmpty();
  }

  @Test
  void theScanFindsInternalReferencesWhereTheyExist() {
    // Guards the test itself: these tests use the platform's internals on purpose.
    assertThat(PublicApi.internalReferences(Path.of("src/test/java")))
        .anyMatch(r -> r.startsWith("Processing.java: dev.onceonly.internal.processing."));
  }
}
