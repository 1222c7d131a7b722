package io.pacer.server;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates made by the test that needs them, with the JDK's own {@code keytool} (no other
 * tool needed on the host): certificate authorities, a server certificate in PEM for the pacer's
 * configuration, and gateway certificates in PKCS#12 keystores for the test's clients.
 */
final class TestCertificates
{
    private static final String PASSWORD = "changeit";

    private final Path dir;

    TestCertificates(final Path dir)
    {
        this.dir = dir;
    }

    /** A new certificate authority; returns its certificate in PEM. */
    Path authority(final String name) throws Exception
    {
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
            "-ext", "bc:c", "-validity", "3", "-keystore", store(name).toString(), "-storetype", "PKCS12",
            "-storepass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", store(name).toString(), "-storepass", PASSWORD,
            "-file", pem(name).toString());
        return pem(name);
    }

    /** A server certificate for localhost and 127.0.0.1, signed by {@code authority}: {cert PEM, key PEM}. */
    Path[] server(final String authority, final String cn) throws Exception
    {
        issue(authority, cn, cn, "san=dns:localhost,ip:127.0.0.1");
        final KeyStore store = load(store(cn));
        final Key key = store.getKey("leaf", PASSWORD.toCharArray());
        final Path keyFile = dir.resolve(cn + ".key");
        Files.writeString(keyFile, "-----BEGIN PRIVATE KEY-----\n" +
            Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded()) +
            "\n-----END PRIVATE KEY-----\n");
        Files.setPosixFilePermissions(keyFile, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        return new Path[] {dir.resolve(cn + ".crt"), keyFile};
    }

    /**
     * A gateway certificate with subject CN {@code cn}, signed by {@code authority}, in a PKCS#12
     * keystore named after both (one CN may be certified by two authorities); made once.
     */
    Path gateway(final String authority, final String cn) throws Exception
    {
        final String name = authority + "-" + cn;
        if (!Files.exists(store(name)))
        {
            issue(authority, cn, name, null);
        }
        return store(name);
    }

    /** A client TLS context presenting {@code keystore}'s certificate (none if null), trusting {@code authority}. */
    SSLContext client(final Path keystore, final Path authorityPem) throws Exception
    {
        final KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(authorityPem))
        {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        final TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        final KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keystore == null ? null : load(keystore), PASSWORD.toCharArray());
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(keystore == null ? null : keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        return context;
    }

    private void issue(final String authority, final String cn, final String name, final String extension)
        throws Exception
    {
        final Path store = store(name);
        keytool("-genkeypair", "-alias", "leaf", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + cn,
            "-validity", "3", "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
        final Path request = dir.resolve(name + ".csr");
        keytool("-certreq", "-alias", "leaf", "-keystore", store.toString(), "-storepass", PASSWORD,
            "-file", request.toString());
        final List<String> sign = new ArrayList<>(List.of("-gencert", "-alias", "ca", "-keystore",
            store(authority).toString(), "-storepass", PASSWORD, "-infile", request.toString(),
            "-outfile", dir.resolve(name + ".crt").toString(), "-rfc", "-validity", "3"));
        if (extension != null)
        {
            sign.addAll(List.of("-ext", extension));
        }
        keytool(sign.toArray(new String[0]));
        keytool("-importcert", "-alias", "ca", "-file", pem(authority).toString(), "-keystore", store.toString(),
            "-storepass", PASSWORD, "-noprompt");
        keytool("-importcert", "-alias", "leaf", "-file", dir.resolve(name + ".crt").toString(), "-keystore",
            store.toString(), "-storepass", PASSWORD, "-noprompt");
    }

    private Path store(final String name)
    {
        return dir.resolve(name + ".p12");
    }

    private Path pem(final String name)
    {
        return dir.resolve(name + ".pem");
    }

    private static KeyStore load(final Path file) throws Exception
    {
        final KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file))
        {
            store.load(in, PASSWORD.toCharArray());
        }
        return store;
    }

    private void keytool(final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
        {
            throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + output);
        }
    }
}
