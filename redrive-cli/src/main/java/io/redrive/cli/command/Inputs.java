package io.redrive.cli.command;

import io.redrive.cli.client.CliException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads a flag's content: the text itself, {@code @file}, or {@code -} for standard input. */
final class Inputs {
  private Inputs() {}

  static String read(String flag, String value) {
    if (value.equals("-")) {
      return stdin(flag);
    }
    if (value.startsWith("@")) {
      return file(flag, Path.of(value.substring(1)));
    }
    return value;
  }

  static String file(String flag, Path path) {
    try {
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw CliException.local("FILE_NOT_FOUND", flag + ": no such file " + path);
    } catch (IOException e) {
      throw CliException.local(
          "FILE_UNREADABLE", flag + ": cannot read " + path + ": " + e.getMessage());
    }
  }

  static String stdin(String flag) {
    try {
      InputStream in = System.in;
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw CliException.local(
          "STDIN_UNREADABLE", flag + ": cannot read standard input: " + e.getMessage());
    }
  }
}
