//! TLS for PostgreSQL connections (feature `postgres-tls`): rustls on
//! ring, checking the server's certificate as libpq's `sslmode` says.

use std::path::Path;
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::config::{ClientCert, Roots, SslMode};

/// The connector for `mode` (not `Disable`), trusting `roots` where the
/// mode checks the certificate, and showing `client` to the server if
/// given. As libpq: `require` with a root certificate checks the chain, as
/// `verify-ca` does.
pub(super) fn connector(
    mode: SslMode,
    roots: Option<&Roots>,
    client: Option<&ClientCert>,
) -> Result<MakeRustlsConnect, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier: Arc<dyn ServerCertVerifier> = match (mode, roots) {
        (SslMode::VerifyFull, Some(roots)) => webpki(roots, &provider)?,
        (SslMode::VerifyCa | SslMode::Require, Some(roots)) => {
            Arc::new(ChainOnly(webpki(roots, &provider)?))
        }
        (SslMode::VerifyFull | SslMode::VerifyCa, None) => {
            return Err("sslmode verify-ca and verify-full need sslrootcert".into());
        }
        _ => Arc::new(Unchecked(provider.clone())),
    };
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(verifier);
    let config = match client {
        None => config.with_no_client_auth(),
        Some(c) => {
            let (chain, key) = client_files(c)?;
            config
                .with_client_auth_cert(chain, key)
                .map_err(|e| format!("sslcert {}: {e}", c.cert.display()))?
        }
    };
    Ok(MakeRustlsConnect::new(config))
}

/// The certificate chain and the key of `c` (PEM). As libpq, a key file
/// others may read is refused.
fn client_files(
    c: &ClientCert,
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), String> {
    let cert_err = |e: &dyn std::fmt::Display| format!("sslcert {}: {e}", c.cert.display());
    let key_err = |e: &dyn std::fmt::Display| format!("sslkey {}: {e}", c.key.display());
    let chain = CertificateDer::pem_file_iter(&c.cert)
        .map_err(|e| cert_err(&e))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| cert_err(&e))?;
    if chain.is_empty() {
        return Err(cert_err(&"no certificate in the file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&c.key)
            .map_err(|e| key_err(&e))?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            return Err(key_err(
                &"has group or world access; permissions should be u=rw (0600) or less",
            ));
        }
    }
    let key = PrivateKeyDer::from_pem_file(&c.key).map_err(|e| key_err(&e))?;
    Ok((chain, key))
}

/// The standard check (chain and host name) against `roots`.
fn webpki(
    roots: &Roots,
    provider: &Arc<CryptoProvider>,
) -> Result<Arc<WebPkiServerVerifier>, String> {
    let (store, what) = match roots {
        Roots::File(path) => (file_roots(path)?, format!("sslrootcert {}", path.display())),
        Roots::System => (system_roots()?, "sslrootcert=system".to_owned()),
    };
    WebPkiServerVerifier::builder_with_provider(Arc::new(store), provider.clone())
        .build()
        .map_err(|e| format!("{what}: {e}"))
}

/// The roots in the PEM file at `path`.
fn file_roots(path: &Path) -> Result<RootCertStore, String> {
    let what = |e: &dyn std::fmt::Display| format!("sslrootcert {}: {e}", path.display());
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(path).map_err(|e| what(&e))? {
        roots
            .add(cert.map_err(|e| what(&e))?)
            .map_err(|e| what(&e))?;
    }
    if roots.is_empty() {
        return Err(what(&"no certificate in the file"));
    }
    Ok(roots)
}

/// The system's trust store (`rustls-native-certs`: the OS's roots, or
/// `SSL_CERT_FILE` / `SSL_CERT_DIR` when set, as OpenSSL, libpq's TLS
/// library, reads them). Unreadable entries are skipped, as OpenSSL does;
/// none at all is an error.
fn system_roots() -> Result<RootCertStore, String> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = RootCertStore::empty();
    let (added, _) = roots.add_parsable_certificates(found.certs);
    if added == 0 {
        let why = found
            .errors
            .first()
            .map_or("none found".to_owned(), |e| e.to_string());
        return Err(format!(
            "sslrootcert=system: no trusted root could be read from the system's store ({why})"
        ));
    }
    Ok(roots)
}

/// `verify-ca`: the chain must lead to a trusted root; the name is not
/// checked (the standard check tests the chain before the name, so a
/// name error means the chain passed).
#[derive(Debug)]
struct ChainOnly(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// `prefer` and `require` without a root: encrypted, the certificate not
/// checked (libpq's meaning); the handshake's signatures still are.
#[derive(Debug)]
struct Unchecked(Arc<CryptoProvider>);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}
