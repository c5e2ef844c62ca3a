"""A casino's certificate authority made at test time (python ``cryptography``), NATS NKey seeds, and an
operator's account with users' credentials files (JWTs signed with NKeys, as ``nsc`` makes them)."""

from __future__ import annotations

import base64
import datetime
import hashlib
import ipaddress
import json
import os
import time
from pathlib import Path
from typing import Any

import nkeys
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def _pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def make_ca(folder: Path, name: str) -> tuple[Path, ec.EllipticCurvePrivateKey, x509.Certificate]:
    """A self-signed CA certificate (PEM) at ``folder/name.pem``; its key and certificate to sign with."""
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(_name(name)).issuer_name(_name(name))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                         content_commitment=False, key_encipherment=False, data_encipherment=False,
                                         key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
            .sign(key, hashes.SHA256()))
    path = folder / f"{name}.pem"
    path.write_bytes(_pem(cert))
    return path, key, cert


def make_server_cert(folder: Path, ca_key: ec.EllipticCurvePrivateKey, ca_cert: x509.Certificate,
                     name: str = "hub", client: bool = False) -> tuple[Path, Path]:
    """The broker's certificate for 127.0.0.1 and localhost (``client``: a client's, for mutual TLS), signed by
    the CA: (certificate, key) PEM files."""
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(_name(name)).issuer_name(ca_cert.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                        x509.DNSName("localhost")]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.CLIENT_AUTH if client else
                                                  x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    cert_path, key_path = folder / f"{name}-cert.pem", folder / f"{name}-key.pem"
    cert_path.write_bytes(_pem(cert))
    key_path.write_bytes(_key_pem(key))
    key_path.chmod(0o600)
    return cert_path, key_path


def make_nkey(folder: Path, name: str) -> tuple[Path, str]:
    """A NATS user NKey: its seed file (one line SU...) and its public key (U...) for the broker's users."""
    seed = nkeys.encode_seed(os.urandom(32), nkeys.PREFIX_BYTE_USER)
    public = nkeys.from_seed(bytearray(seed)).public_key.decode("ascii")
    path = folder / f"{name}.nk"
    path.write_bytes(seed + b"\n")
    path.chmod(0o600)
    return path, public


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _keypair(prefix: int) -> tuple[bytes, Any]:
    seed = nkeys.encode_seed(os.urandom(32), prefix)
    return seed, nkeys.from_seed(bytearray(seed))


def _jwt(issuer: Any, claims: dict[str, Any]) -> str:
    """A NATS JWT (as nsc writes them): header.claims, signed by the issuer's NKey."""
    claims = {"iat": int(time.time()), "iss": issuer.public_key.decode("ascii"), **claims}
    claims["jti"] = base64.b32encode(hashlib.sha256(json.dumps(claims, sort_keys=True).encode()).digest()
                                     ).decode("ascii").rstrip("=")
    head = _b64(json.dumps({"typ": "JWT", "alg": "ed25519-nkey"}).encode()) + "." + _b64(json.dumps(claims).encode())
    return head + "." + _b64(issuer.sign(head.encode("ascii")))


class Operator:
    """A NATS operator with one account, as ``nsc`` makes them: the broker's ``operator`` and ``resolver`` lines,
    and users' credentials files (the user's JWT signed by the account, and the user's seed)."""

    def __init__(self) -> None:
        _, self.key = _keypair(nkeys.PREFIX_BYTE_OPERATOR)
        self.public = self.key.public_key.decode("ascii")
        self.jwt = _jwt(self.key, {"name": "casino", "sub": self.public, "nats": {"type": "operator", "version": 2}})
        _, self.account = _keypair(nkeys.PREFIX_BYTE_ACCOUNT)
        self.account_public = self.account.public_key.decode("ascii")
        limits = {"subs": -1, "data": -1, "payload": -1, "imports": -1, "exports": -1, "wildcards": True,
                  "conn": -1, "leaf": -1}
        self.account_jwt = _jwt(self.key, {"name": "floor", "sub": self.account_public,
                                           "nats": {"limits": limits, "type": "account", "version": 2}})

    def broker_lines(self) -> list[str]:
        return [f'operator: "{self.jwt}"', "resolver: MEMORY",
                f'resolver_preload: {{ {self.account_public}: "{self.account_jwt}" }}']

    def creds(self, folder: Path, name: str, signer: Any = None) -> Path:
        """A user's credentials file; ``signer`` another account's key makes one the broker does not trust."""
        seed, user = _keypair(nkeys.PREFIX_BYTE_USER)
        token = _jwt(signer or self.account, {"name": name, "sub": user.public_key.decode("ascii"), "nats": {
            "pub": {}, "sub": {}, "subs": -1, "data": -1, "payload": -1, "type": "user", "version": 2}})
        path = folder / f"{name}.creds"
        path.write_text(f"-----BEGIN NATS USER JWT-----\n{token}\n------END NATS USER JWT------\n\n"
                        f"-----BEGIN USER NKEY SEED-----\n{seed.decode('ascii')}\n------END USER NKEY SEED------\n")
        path.chmod(0o600)
        return path

    @staticmethod
    def stranger() -> Any:
        return _keypair(nkeys.PREFIX_BYTE_ACCOUNT)[1]
