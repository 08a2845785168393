package dev.onceonly.consumer;

import dev.onceonly.model.ProductionEnvironment;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.util.List;

/**
 * The entry point: before Quarkus starts, the packaged service ({@code quarkus-run.jar}) in the
 * {@code prod} profile checks that every setting production must be given is in the environment,
 * and otherwise stops at once with one message naming all of them (Quarkus itself would stop at the
 * first, naming a property rather than the variable to set). Dev mode and tests start through other
 * class loaders and are not checked: they have defaults.
 */
@QuarkusMain
public class ConsumerMain {

  static final String PACKAGED_LOADER = "io.quarkus.bootstrap.runner.RunnerClassLoader";

  public static void main(String... args) {
    if (PACKAGED_LOADER.equals(ConsumerMain.class.getClassLoader().getClass().getName())
        && ProductionEnvironment.prodProfileActive(System::getenv, System::getProperty)) {
      List<ProductionEnvironment.Requirement> missing =
          ProductionEnvironment.missing(
              ProductionEnvironment.requirementsOfClasspath(ConsumerMain.class.getClassLoader()),
              System::getenv,
              System::getProperty);
      if (!missing.isEmpty()) {
        System.err.println(ProductionEnvironment.refusal("consumer-service", missing));
        System.exit(1);
      }
    }
    Quarkus.run(args);
  }
}
