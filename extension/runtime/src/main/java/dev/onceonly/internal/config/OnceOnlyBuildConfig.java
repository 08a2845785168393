package dev.onceonly.internal.config;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What the platform adds to a service at build time, under {@code quarkus.onceonly}. */
@ConfigMapping(prefix = "quarkus.onceonly")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface OnceOnlyBuildConfig {

  /** The operator API. */
  ApiBuild api();

  /** The operator API. */
  interface ApiBuild {
    /**
     * Adds the operator REST API: {@code GET /claims/{consumer}/{key}}, {@code GET /conflicts},
     * {@code GET /rejections}, {@code POST /dead-letters/{queue}/replay} and {@code GET /audit},
     * behind the roles {@code outbox-viewer} (reads) and {@code outbox-admin} (changes).
     */
    @WithDefault("false")
    boolean enabled();
  }
}
