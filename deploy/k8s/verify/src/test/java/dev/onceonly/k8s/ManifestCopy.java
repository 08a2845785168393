package dev.onceonly.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A copy of the manifests (deploy/k8s without its tests, deploy/prometheus, deploy/grafana) under
 * the build's target directory, laid out as in the repository, so that a test can edit a file as an
 * operator would and render again without touching the checkout.
 */
final class ManifestCopy {

  private static final List<String> TREES =
      List.of("deploy/k8s", "deploy/prometheus", "deploy/grafana");

  final Path root;

  private ManifestCopy(Path root) {
    this.root = root;
  }

  /** A fresh copy in {@code deploy/k8s/verify/target/copies/<name>}. */
  static ManifestCopy of(String name) {
    Path root = Repo.path("deploy/k8s/verify/target/copies/" + name);
    try {
      delete(root);
      for (String tree : TREES) {
        copy(Repo.path(tree), root.resolve(tree));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ManifestCopy(root);
  }

  /** Renders an overlay (or any kustomization directory) of the copy. */
  Rendered render(String dir) {
    return Rendered.render(Repo.root().relativize(root.resolve(dir)).toString());
  }

  /**
   * Renders {@code overlay} of the copy with one more component, added by an overlay of its own as
   * the component's README tells an operator to add it.
   */
  Rendered renderWith(String overlay, String component) {
    String with = "deploy/k8s/overlays/with-" + component;
    write(
        with + "/kustomization.yaml",
        """
        apiVersion: kustomize.config.k8s.io/v1beta1
        kind: Kustomization
        resources:
          - ../%s
        components:
          - ../../components/%s
        """
            .formatted(overlay, component));
    return render(with);
  }

  /**
   * The configured addresses the Deployment {@code deployment} cannot reach in the copy's render of
   * {@code dir} ({@link EgressPolicy}).
   */
  List<String> unreachable(String dir, String deployment) {
    Rendered rendered = render(dir);
    return new EgressPolicy(rendered).unreachable(rendered.one("Deployment", deployment));
  }

  /** Replaces {@code from} by {@code to} in a file of the copy; fails if {@code from} is absent. */
  ManifestCopy edit(String file, String from, String to) {
    Path path = root.resolve(file);
    try {
      String text = Files.readString(path);
      if (!text.contains(from)) {
        throw new AssertionError(file + " does not contain " + from);
      }
      Files.writeString(path, text.replace(from, to));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  /** Writes a file of the copy. */
  ManifestCopy write(String file, String text) {
    try {
      Files.createDirectories(root.resolve(file).getParent());
      Files.writeString(root.resolve(file), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.walkFileTree(
        from,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            if (dir.getFileName().toString().equals("verify")) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            Files.createDirectories(to.resolve(from.relativize(dir).toString()));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.copy(
                file,
                to.resolve(from.relativize(file).toString()),
                StandardCopyOption.REPLACE_EXISTING);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  private static void delete(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
