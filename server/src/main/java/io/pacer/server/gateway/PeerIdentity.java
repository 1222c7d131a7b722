package io.pacer.server.gateway;

import io.netty.handler.ssl.SslHandler;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;

/**
 * A gateway's identity under mutual TLS: the CN of its certificate's subject (the whole subject
 * if it has no CN). Read once, when the handshake completes; the JDK's {@link LdapName} parses the
 * subject.
 */
final class PeerIdentity
{
    /** A connection without a verified client certificate (plain TCP, or TLS without client auth). */
    static final String ANONYMOUS = "";

    private PeerIdentity()
    {
    }

    static String of(final SslHandler tls)
    {
        final Certificate[] chain;
        try
        {
            chain = tls.engine().getSession().getPeerCertificates();
        }
        catch (final SSLPeerUnverifiedException ex)
        {
            return ANONYMOUS;
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf))
        {
            return ANONYMOUS;
        }
        final String subject = leaf.getSubjectX500Principal().getName();
        try
        {
            for (final Rdn rdn : new LdapName(subject).getRdns())
            {
                if ("CN".equalsIgnoreCase(rdn.getType()))
                {
                    return rdn.getValue().toString();
                }
            }
        }
        catch (final InvalidNameException ex)
        {
            // X500Principal.getName() is RFC 2253 already; keep the whole subject
        }
        return subject;
    }
}
