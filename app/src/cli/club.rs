//! `xenolog serve`: the club server in the foreground (`xenolog_server`).
//!
//! It prints the address and, on the first start, the organiser's one-time
//! invitation to standard output (never to the log on standard error), and
//! stops cleanly on SIGINT or SIGTERM with exit code 0.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;
use xenolog_server::serve::{Config, check_public, invitation_link, run_blocking};

use super::{Fail, Out};

#[derive(Args, Debug)]
pub(super) struct ServeArgs {
    /// The data folder: the club file and the campaigns (made if missing).
    #[arg(long)]
    data: PathBuf,
    /// The address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: SocketAddr,
    /// Print a new organiser invitation even though the club has an
    /// organiser (a lost token: revoke it afterwards).
    #[arg(long)]
    invite_organiser: bool,
    /// Where players reach the server, as invitation links name it
    /// (HOST:PORT, e.g. club.example.org:8470): behind a router or a
    /// reverse proxy, or listening on 0.0.0.0. Default: the listen address.
    #[arg(long, value_name = "HOST:PORT")]
    public_url: Option<String>,
}

pub(super) fn serve(args: ServeArgs, out: &mut dyn Write) -> Out {
    if let Some(p) = &args.public_url {
        check_public(p).map_err(Fail::usage)?;
    }
    let config = Config {
        data: args.data,
        listen: args.listen,
        invite_organiser: args.invite_organiser,
        public: args.public_url,
    };
    run_blocking(config, |ready| {
        let mut text = format!("listening on {}\n", ready.ws_url);
        text += &format!("club file {}\n", ready.club_file.display());
        match &ready.invitation {
            Some(inv) => {
                text += &format!(
                    "organiser invitation (shown once, valid 7 days): {}\n",
                    inv.code.expose()
                );
                text += &format!("  link: {}\n", invitation_link(&ready.public, &inv.code));
            }
            None => {
                text += "the club has an organiser; --invite-organiser prints a new organiser invitation\n"
            }
        }
        text += "stop with Ctrl-C (or SIGTERM)\n";
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write to standard output: {e}"))
    })
    .map_err(|e| Fail::usage(e.to_string()))
}
