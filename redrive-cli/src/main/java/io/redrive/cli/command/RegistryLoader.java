package io.redrive.cli.command;

import io.redrive.cli.client.CliException;
import io.redrive.workflow.WorkflowRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads a build's {@link WorkflowRegistry} from its jars: {@code CLASS#METHOD} names a public
 * static method without parameters that returns the registry, as the application builds it for its
 * runtime. Redrive's own classes (and those the CLI ships) come from the CLI, so the registry is
 * built against the same API the server speaks.
 */
final class RegistryLoader {
  private RegistryLoader() {}

  static WorkflowRegistry load(String flag, List<Path> jars, String registry) {
    int hash = registry.indexOf('#');
    if (hash <= 0 || hash == registry.length() - 1) {
      throw CliException.usage(
          flag + ": CLASS#METHOD, e.g. com.example.Workflows#registry, was \"" + registry + "\"");
    }
    String className = registry.substring(0, hash);
    String methodName = registry.substring(hash + 1);
    List<URL> urls = new ArrayList<>();
    for (Path jar : jars == null ? List.<Path>of() : jars) {
      if (!Files.exists(jar)) {
        throw CliException.local("FILE_NOT_FOUND", "--jar: no such file " + jar);
      }
      try {
        urls.add(jar.toAbsolutePath().toUri().toURL());
      } catch (MalformedURLException e) {
        throw CliException.local("FILE_UNREADABLE", "--jar: " + jar + ": " + e.getMessage());
      }
    }
    // Not closed: the registry's code runs (and loads classes) after this returns.
    ClassLoader loader =
        new URLClassLoader(urls.toArray(URL[]::new), RegistryLoader.class.getClassLoader());
    Class<?> type;
    try {
      type = Class.forName(className, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw CliException.local(
          "REGISTRY_NOT_FOUND",
          flag + ": class " + className + " not found in the given --jar files (" + e + ")");
    }
    Method method;
    try {
      method = type.getMethod(methodName);
    } catch (NoSuchMethodException e) {
      throw CliException.local(
          "REGISTRY_NOT_FOUND",
          flag + ": " + className + " has no public method " + methodName + "()");
    }
    if (!Modifier.isStatic(method.getModifiers())
        || !WorkflowRegistry.class.isAssignableFrom(method.getReturnType())) {
      throw CliException.local(
          "REGISTRY_NOT_FOUND",
          flag + ": " + registry + " must be static and return a WorkflowRegistry");
    }
    try {
      return (WorkflowRegistry) method.invoke(null);
    } catch (InvocationTargetException e) {
      throw CliException.local(
          "REGISTRY_FAILED", flag + ": " + registry + "() threw " + e.getCause());
    } catch (IllegalAccessException e) {
      throw CliException.local("REGISTRY_FAILED", flag + ": " + registry + ": " + e);
    }
  }
}
