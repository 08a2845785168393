package dev.onceonly.consumer.loyalty;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Min;

/** The loyalty example's own settings; the platform's are under {@code quarkus.onceonly}. */
@ConfigMapping(prefix = "loyalty")
public interface LoyaltyConfig {

  /** How orders turn into points. */
  Points points();

  interface Points {
    /** Cents of order total per loyalty point: 100 means one point per currency unit. */
    @WithDefault("100")
    @Min(1)
    long centsPerPoint();
  }
}
